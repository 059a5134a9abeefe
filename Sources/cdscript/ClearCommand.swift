import ArgumentParser
import CountdownCore
import CountdownStore

struct ClearCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clear",
        abstract: "Remove the stored countdowns that have finished."
    )

    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let store = try storeOptions.openShared()
        var removed: [String] = []
        if store.exists {
            do {
                removed = try store.removeFinished(at: try store.now())
            } catch {
                throw failOnStore(error)
            }
        }
        emit("removed \(removed.count) finished countdown\(removed.count == 1 ? "" : "s")" + (removed.isEmpty ? "" : ": " + removed.map(VisibleText.escaped).joined(separator: ", ")), what: "the report")
    }
}
