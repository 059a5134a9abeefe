import ArgumentParser
import CountdownCore
import StoreViews
import CommandLineWords

struct CancelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cancel",
        abstract: "Cancel a stored countdown: it is removed, and every process running it ends it (on_done with \"cancelled\").",
        discussion: """
            With --all or --match, many at once: removed in slices (one transaction or one Redis pipeline each), \
            so that a million take seconds. A PATTERN is matched against whole ids: `*` any characters, `?` one, \
            `[a-z]` and `[!a-z]` one of a set, `\\` before a character for the character itself.
            """
    )

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The id of the stored countdown.", completion: .storedIDs)
    var id: String?

    @Flag(name: .customLong("all"), help: "Cancel every stored countdown.")
    var all = false

    @Option(name: .customLong("match"), help: ArgumentHelp("Cancel every stored countdown whose id matches PATTERN (quote it: 'exam-*').", valueName: "PATTERN"))
    var pattern: String?

    func validate() throws {
        let given = [id != nil, all, pattern != nil].filter { $0 }.count
        if given == 0 { throw ValidationError("Give the id of a stored countdown, --all or --match PATTERN") }
        if given > 1 { throw ValidationError("Give one of: an id, --all, --match PATTERN") }
        if let pattern {
            do { _ = try IDPattern(pattern) } catch { throw ValidationError("\(error)") }
        }
    }

    func run() throws {
        let store = try storeOptions.openShared()
        try exitingAsCommand {
            if let id { return try StoreRemoval.cancel(id, in: store) }
            try StoreRemoval.cancelAll(matching: try pattern.map { try IDPattern($0) }, in: store)
        }
    }
}
