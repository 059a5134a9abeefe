import CommandEnding
import ArgumentParser
import StoreViews
import CommandLineWords

/// `cdscript __complete-ids`: the stored ids, one a line, from the store of
/// `--store` or `--state-dir` (the same list the completions of cancel, append,
/// pause, resume and watch offer). Hidden; quiet and exit 0 when the store
/// cannot be read, since a completion must never print errors into the command line.
/// Ids holding control characters are not offered.
struct CompleteIDsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "__complete-ids",
        abstract: "Print the stored countdowns' ids, one a line (for shell completion).",
        shouldDisplay: false
    )

    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        for id in StoredIDs.sorted(StoreLocation(stateDir: storeOptions.stateDir, store: storeOptions.store, tls: storeOptions.tlsSettings)) { emit(id, what: "the ids") }
    }
}
