import ArgumentParser
import CountdownCore
import SQLiteStore

struct CancelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cancel",
        abstract: "Cancel a stored countdown: it is removed, and every process running it ends it (on_done with \"cancelled\")."
    )

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The id of the stored countdown.", completion: .storedIDs)
    var id: String

    func run() throws {
        let store = try storeOptions.openShared()
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
    }
}
