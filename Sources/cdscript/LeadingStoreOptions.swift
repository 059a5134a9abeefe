/// `cdscript --store URL list` is `cdscript list --store URL`: the store's options
/// may come before a command's name, as they do in the completions (set a store
/// once, then pick the command). ArgumentParser reads options only after the
/// command's name: without this, `list` would be taken for the default command's script.
enum LeadingStoreOptions {
    /// `arguments` with a command's name moved ahead of the `--store` and
    /// `--state-dir` options that precede it; unchanged otherwise.
    static func reordered(_ arguments: [String]) -> [String] {
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            if word == "--store" || word == "--state-dir" {
                index += 2
            } else if word.hasPrefix("--store=") || word.hasPrefix("--state-dir=") {
                index += 1
            } else {
                break
            }
        }
        // `help` reads command names, not options.
        guard index > 0, index < arguments.count, arguments[index] != "help",
              CommandHints.commandNames.contains(arguments[index]) else { return arguments }
        return [arguments[index]] + arguments[..<index] + arguments[(index + 1)...]
    }
}
