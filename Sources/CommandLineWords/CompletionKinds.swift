import ArgumentParser
import StoreViews

/// The completions that need the binary at TAB time: the generated scripts run
/// `cdscript ---completion ...`, which calls these closures in-process.
extension CompletionKind {
    /// Stored ids, from the store named by `--store` / `--state-dir` already on the line.
    public static var storedIDs: CompletionKind { storedIDs(.any) }

    /// The stored ids a command can act on (`pause` running ones, `resume` paused ones).
    public static func storedIDs(_ states: StoredIDs.States) -> CompletionKind {
        .custom { words, index, _ in StoredIDs.sorted(StoredIDs.location(typed: Array(words.prefix(index))), states) }
    }

    /// Folders and test files (`*_spec.lua`, `*_test.lua`), as `cdscript test` finds them.
    public static var testPaths: CompletionKind {
        .custom { _, _, prefix in PathCompletion.entries(under: prefix, markFolders: marksFolders) { $0.hasSuffix("_spec.lua") || $0.hasSuffix("_test.lua") } }
    }

    /// Programs on PATH, for `timer --exec`.
    public static var programs: CompletionKind {
        .custom { _, _, prefix in PathCompletion.programs(prefix: prefix, markFolders: marksFolders) }
    }

    /// bash marks folders itself (complete -o filenames); fish and zsh go on into them.
    private static var marksFolders: Bool { CompletionShell.requesting != .bash }
}
