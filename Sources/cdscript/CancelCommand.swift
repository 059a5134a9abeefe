import ArgumentParser
import CountdownCore
import SQLiteStore

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
        if let id { return try cancel(id, in: store) }
        let matching = try pattern.map { try IDPattern($0) }
        let removed: [String]
        do {
            removed = store.exists ? try store.persistence.cancelAll(matching: matching) : []
        } catch let partial as PartialDeleteError {
            printError("cdscript: \(partial)")
            throw ExitCode(ExitStatus.storeError.rawValue)
        } catch {
            throw failOnStore(error)
        }
        if let pattern, removed.isEmpty {
            printError("cdscript: no stored countdown's id matches '\(VisibleText.escaped(pattern))' (in \(store.location))")
            throw ExitCode(ExitStatus.unknownCountdown.rawValue)
        }
        emit("cancelled \(removed.count) countdown\(removed.count == 1 ? "" : "s")", what: "the report")
        if let status = store.finishCommand() { throw ExitCode(status.rawValue) }
    }

    private func cancel(_ id: String, in store: SharedStore) throws {
        let removed: Bool
        do {
            removed = store.exists ? try store.persistence.delete(id: id) : false
        } catch {
            throw failOnStore(error)
        }
        guard removed else {
            printError("cdscript: no stored countdown has the id '\(VisibleText.escaped(id))' (in \(store.location))")
            throw ExitCode(ExitStatus.unknownCountdown.rawValue)
        }
        emit("cancelled \(VisibleText.escaped(id))", what: "the report")
        if let status = store.finishCommand() { throw ExitCode(status.rawValue) }
    }
}
