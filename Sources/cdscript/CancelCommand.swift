import ArgumentParser
import CountdownCore
import CountdownStore

struct CancelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cancel",
        abstract: "Remove a stored countdown (a process running it goes on until it ends)."
    )

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The id of the stored countdown.")
    var id: String

    func run() throws {
        let store = storeOptions.makeStore()
        let removed: Bool
        do {
            removed = store.fileExists ? try store.delete(id: id) : false
        } catch {
            throw failOnStore(error)
        }
        guard removed else {
            printError("cdscript: no stored countdown has the id '\(VisibleText.escaped(id))' (in \(store.path))")
            throw ExitCode(ExitStatus.unknownCountdown.rawValue)
        }
        print("cancelled \(VisibleText.escaped(id))")
    }
}
