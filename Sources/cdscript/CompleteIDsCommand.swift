import ArgumentParser
import CountdownCore
import CountdownStore

/// `cdscript __complete-ids`: the stored ids, one a line, for the shell completions
/// of cancel, append, pause and resume. Hidden; quiet and exit 0 when the store
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
        let store = storeOptions.makeStore()
        guard store.fileExists, let listing = try? store.listing() else { return }
        // Unreadable ones too: `cancel` removes them by id.
        let ids = listing.countdowns.map(\.id) + listing.unreadable.filter(\.idIsText).map(\.id)
        // An id with a control character is left out: the shell would put it on the
        // command line raw (an escape sequence for the terminal), and its escaped
        // form names no countdown. `list` shows it escaped.
        for id in ids.sorted() where !VisibleText.hasControls(id) { emit(id, what: "the ids") }
    }
}
