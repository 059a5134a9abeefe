import ArgumentParser
import FoundationEssentials

/// Messages for what people type at the edges: a command name mistyped as a
/// script, `help` with an unknown command, `-v` for the version.
public enum CommandHints {
    /// The subcommands' names in their order, `help` included: `CommandOptionTable`'s
    /// list (CommandOptionTableTests holds it to the subcommands), not read from the
    /// subcommands' configurations, which every run would otherwise build.
    static let commandNames: [String] = CommandOptionTable.commandNames + ["help"]

    /// For `cdscript lsit`: a missing "script" that looks like a command's name.
    public static func mistypedCommand(script: String) -> String? {
        guard !script.contains("/"), !script.hasSuffix(".lua"), !FileManager.default.fileExists(atPath: script),
              let command = closest(to: script, in: commandNames) else { return nil }
        return "cdscript: there is no script `\(script)`; did you mean `cdscript \(command)`?"
    }

    /// What to say before parsing, with the exit code; nil when parsing may go ahead.
    public static func preflight(_ arguments: [String]) -> String? {
        guard let first = arguments.first else { return nil }
        if first == "-v" || first == "-V" || first == "-version" {
            return "cdscript: unknown option '\(first)'; for the version, use --version"
        }
        if first == "help", arguments.count > 1, !arguments[1].hasPrefix("-"), !commandNames.contains(arguments[1]) {
            let name = arguments[1]
            let suggestion = closest(to: name, in: commandNames).map { " (did you mean `\($0)`?)" } ?? ""
            return "cdscript: no command `\(name)`\(suggestion); commands: \(commandNames.joined(separator: ", "))"
        }
        return nil
    }

    /// The name within two edits of `word` (and closer than the word is long), if any.
    static func closest(to word: String, in names: [String]) -> String? {
        let scored = names.map { ($0, editDistance($0, word)) }.filter { $0.1 <= min(2, max(1, word.count / 2)) }
        return scored.min { $0.1 < $1.1 }?.0
    }

    /// Optimal string alignment distance: a swap of two neighbours counts as one edit.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}
