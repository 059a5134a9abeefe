import CountdownCore

/// What each action name runs where `cdscript serve` runs: the built-in names, the
/// lines of the action configuration file, and `--action NAME=COMMAND`, in that
/// order of precedence (a later one replaces an earlier one of the same name).
/// Never anything read from a store: a stored countdown carries names only.
public struct ActionCatalog: Equatable, Sendable {
    /// What a name runs.
    public enum Action: Equatable, Sendable {
        /// A desktop notification through `notify-send`.
        case notify
        /// A BEL (and a line) on standard output: the terminal or the log.
        case bell
        /// One line on standard output.
        case log
        /// A command line, run by `/bin/sh -c` with the countdown in its environment.
        case command(String)

        /// How reports name it.
        public var summary: String {
            switch self {
            case .notify: "built-in notify"
            case .bell: "built-in bell"
            case .log: "built-in log"
            case .command(let line): "command \(line)"
            }
        }
    }

    /// Every name, with what it runs.
    public private(set) var actions: [String: Action]

    /// The built-in names only.
    public static let builtIn: [String: Action] = ["notify": .notify, "bell": .bell, "log": .log]

    public init(actions: [String: Action] = ActionCatalog.builtIn) {
        self.actions = actions
    }

    public subscript(name: String) -> Action? { actions[name] }

    /// The built-ins, then the file's lines, then the command line's definitions.
    public static func make(file: String?, options: [String]) throws(ActionConfigError) -> ActionCatalog {
        var catalog = ActionCatalog()
        if let file { try catalog.read(file: file, origin: "actions.conf") }
        for option in options { try catalog.define(option, origin: "--action") }
        return catalog
    }

    /// Reads the configuration file's text: one `name = command line` a line;
    /// blank lines and lines starting with `#` are skipped. `origin` names the
    /// file in messages (with the line number).
    public mutating func read(file text: String, origin: String) throws(ActionConfigError) {
        // "\r\n" is one Character: a file with Windows line ends splits there too.
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).enumerated() {
            let line = raw.trimmingSpaces
            if line.isEmpty || line.hasPrefix("#") { continue }
            try define(String(line), origin: "\(origin):\(index + 1)")
        }
    }

    /// Defines one `name = command line` (or `NAME=COMMAND`).
    public mutating func define(_ definition: String, origin: String) throws(ActionConfigError) {
        guard let equals = definition.firstIndex(of: "=") else {
            throw ActionConfigError(origin: origin, problem: "expected NAME = COMMAND, got '\(VisibleText.escaped(definition))'")
        }
        let name = String(definition[..<equals].trimmingSpaces)
        let command = String(definition[definition.index(after: equals)...].trimmingSpaces)
        if let refusal = CountdownAnnotations.actionNameRefusal(name) {
            throw ActionConfigError(origin: origin, problem: refusal)
        }
        guard !command.isEmpty else {
            throw ActionConfigError(origin: origin, problem: "the action '\(name)' has no command")
        }
        guard !command.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\t" }) else {
            throw ActionConfigError(origin: origin, problem: "the command of '\(name)' holds a control character")
        }
        actions[name] = .command(command)
    }

    /// What changed from `old` to this catalog, one line per name, for the
    /// report of a reload (SIGHUP); empty when nothing did.
    public func changes(from old: ActionCatalog) -> [String] {
        var lines: [String] = []
        for name in Set(actions.keys).union(old.actions.keys).sorted() {
            switch (old.actions[name], actions[name]) {
            case (nil, let new?): lines.append("added \(name): \(new.summary)")
            case (_?, nil): lines.append("removed \(name)")
            case (let before?, let after?) where before != after: lines.append("changed \(name): \(after.summary) (was \(before.summary))")
            default: break
            }
        }
        return lines
    }
}

/// A line of the action configuration that cannot be used.
public struct ActionConfigError: Error, CustomStringConvertible, Equatable {
    /// Where: `actions.conf:3`, `--action`.
    public var origin: String
    public var problem: String

    public var description: String { "\(origin): \(problem)" }
}

extension StringProtocol {
    /// Without the spaces and tabs at either end.
    var trimmingSpaces: SubSequence {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }) else { return self[endIndex...] }
        let last = lastIndex(where: { !isSpace($0) })!
        return self[first...last]
    }
}
