/// `cdscript --speed 60 timer 2m` is `cdscript timer 2m --speed 60`, and
/// `cdscript --store URL list` is `cdscript list --store URL`: options may come
/// before a command's name and mean there what they mean after it, for every
/// command (the completions set a store once, then pick the command).
/// ArgumentParser reads options only after the command's name: without this,
/// `timer` would be taken for the default command's script.
public enum LeadingOptions {
    /// `arguments` with a command's name moved ahead of the options that precede
    /// it; unchanged when they do not start with an option, or no command's name
    /// follows the leading options (a script's name does: `cdscript --speed 60 tea.lua`).
    public static func reordered(_ arguments: [String]) -> [String] {
        guard let first = arguments.first, first.hasPrefix("-"), first != "--" else { return arguments }
        let commands = CommandHints.commandNames.filter { $0 != "help" }
        // The words before it must all be that command's options with their values;
        // failing that, any command's (`cdscript --speed 5 list`: then `list` says
        // it has no --speed, rather than that there is no script `list`).
        for options in [CommandOptions.of, { _ in CommandOptions.ofAny }] as [(String) -> CommandOptions?] {
            for (index, word) in arguments.enumerated() where commands.contains(word) {
                guard let known = options(word), known.consumesAll(arguments[..<index]) else { continue }
                return [word] + arguments[..<index] + arguments[(index + 1)...]
            }
        }
        return arguments
    }
}

/// What a command's options are: their names, and whether each takes a value
/// (one row of `CommandOptionTable` each).
struct CommandOptions: Equatable, Sendable {
    /// Long and short names with their dashes (`--speed`, `-o`), and whether each takes a value.
    var takesValue: [String: Bool] = [:]
    /// Options after which every word is theirs (`timer --exec PROGRAM ARGS...`).
    var takesRest: Set<String> = []
    /// True when the command's first positional ends its options (`run SCRIPT ARGS...`).
    var positionalEndsOptions = false

    init(takesValue: [String: Bool] = [:], takesRest: Set<String> = [], positionalEndsOptions: Bool = false) {
        self.takesValue = takesValue
        self.takesRest = takesRest
        self.positionalEndsOptions = positionalEndsOptions
    }

    /// Options spelt `values` take a value, `flags` none; `rest` take every word after them.
    init(values: [String] = [], flags: [String] = [], rest: [String] = [], positionalEndsOptions: Bool = false) {
        var takesValue = [String: Bool]()
        for name in values + rest { takesValue[name] = true }
        for name in flags { takesValue[name] = false }
        self.init(takesValue: takesValue, takesRest: Set(rest), positionalEndsOptions: positionalEndsOptions)
    }

    /// These options and `other`'s together (an option declared by both takes what it takes here).
    func merging(_ other: CommandOptions) -> CommandOptions {
        CommandOptions(takesValue: takesValue.merging(other.takesValue) { mine, _ in mine },
                       takesRest: takesRest.union(other.takesRest),
                       positionalEndsOptions: positionalEndsOptions || other.positionalEndsOptions)
    }

    /// The options of the command named `name` (the root's `--help` and `--version` included).
    static func of(_ name: String) -> CommandOptions? {
        CommandOptionTable.options(of: name)
    }

    /// The options of every command together (an option's taking a value is the
    /// same wherever it is declared).
    static var ofAny: CommandOptions? {
        CommandHints.commandNames.compactMap(of).reduce(CommandOptions()) { $0.merging($1) }
    }

    /// True when `words` are options of this command, each followed by its value if it takes one.
    func consumesAll(_ words: ArraySlice<String>) -> Bool {
        var index = words.startIndex
        while index < words.endIndex {
            let word = words[index]
            let name = word.split(separator: "=", maxSplits: 1).first.map(String.init) ?? word
            guard let value = takesValue[name], !takesRest.contains(name) else { return false }
            index += value && !word.contains("=") ? 2 : 1
        }
        return index == words.endIndex
    }

    /// The first option among `arguments` (a whole command line, command first
    /// unless it is the default one) that this command does not have, with the
    /// name closest to it; nil when every option is known or none is close.
    func misspelt(in arguments: ArraySlice<String>) -> (typed: String, meant: String)? {
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let word = arguments[index]
            index += 1
            if word == "--" { return nil }
            guard word.hasPrefix("--") else {
                if positionalEndsOptions, !word.hasPrefix("-") { return nil }
                continue
            }
            let name = word.split(separator: "=", maxSplits: 1).first.map(String.init) ?? word
            if let value = takesValue[name] {
                if takesRest.contains(name) { return nil }
                if value && !word.contains("=") { index += 1 }
                continue
            }
            let longNames = takesValue.keys.filter { $0.hasPrefix("--") }.map { String($0.dropFirst(2)) }
            guard let meant = CommandHints.closest(to: String(name.dropFirst(2)), in: longNames.sorted()) else { return nil }
            return (name, "--" + meant)
        }
        return nil
    }
}

/// What to say for `cdscript --verison` or `cdscript list --jsno`: the option
/// meant, where ArgumentParser would name only the argument it then missed.
public enum OptionHints {
    /// The message for a misspelt option on `arguments` (already reordered), if any.
    public static func misspelt(_ arguments: [String]) -> String? {
        let commandGiven = arguments.first.map { CommandHints.commandNames.contains($0) } ?? false
        let name = commandGiven ? arguments[0] : "run"
        guard name != "help", let options = CommandOptions.of(name),
              let (typed, meant) = options.misspelt(in: arguments.dropFirst(commandGiven ? 1 : 0)) else { return nil }
        return "cdscript: unknown option '\(typed)'; did you mean '\(meant)'?"
    }
}
