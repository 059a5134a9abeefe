import ArgumentParser
import CountdownCore
import SQLiteStore

struct ClearCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clear",
        abstract: "Remove the stored countdowns that have finished, and any that cannot be read."
    )

    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let store = try storeOptions.openShared()
        var removed: [String] = []
        var unreadable: [UnreadableCountdown] = []
        if store.exists {
            do {
                // Records that cannot be read can never run again: clear removes them too, naming each.
                (removed, unreadable) = try store.clear(at: try store.now())
            } catch {
                throw failOnStore(error)
            }
        }
        emit("removed \(removed.count) finished countdown\(removed.count == 1 ? "" : "s")" + (removed.isEmpty ? "" : ": " + removed.map(VisibleText.escaped).joined(separator: ", ")), what: "the report")
        if !unreadable.isEmpty {
            emit("removed \(unreadable.count) unreadable countdown\(unreadable.count == 1 ? "" : "s"): " + unreadable.map { "\($0.shownID) (\($0.problem))" }.joined(separator: ", "), what: "the report")
        }
    }
}
