import CommandEnding
import CountdownCore
import TerminalView

/// What `cdscript clear` and `cdscript cancel` do to a store, once their words
/// are read: each says what it removed through `report` (a line at a time) and
/// ends with a `CommandExit` when it did not do what was asked.
public enum StoreRemoval {
    /// Writes a line of the report to standard output.
    public static func standardOutput(_ line: String) {
        StandardOutput.write(line + "\n", what: "the report")
    }

    /// Removes the countdowns that have finished and the records that cannot be
    /// read (they can never run again), naming each.
    public static func clear(_ store: SharedStore, report: (String) -> Void = StoreRemoval.standardOutput) throws(CommandExit) {
        var removed: [String] = []
        var unreadable: [UnreadableCountdown] = []
        if store.exists {
            do {
                (removed, unreadable) = try store.clear(at: try store.now())
            } catch {
                throw CommandExit.storeFailed(error)
            }
        }
        report("removed \(removed.count) finished countdown\(removed.count == 1 ? "" : "s")" + (removed.isEmpty ? "" : ": " + removed.map(VisibleText.escaped).joined(separator: ", ")))
        if !unreadable.isEmpty {
            report("removed \(unreadable.count) unreadable countdown\(unreadable.count == 1 ? "" : "s"): " + unreadable.map { "\($0.shownID) (\($0.problem))" }.joined(separator: ", "))
        }
    }

    /// Cancels the countdown stored under `id`: exit 7 when there is none.
    public static func cancel(_ id: String, in store: SharedStore, report: (String) -> Void = StoreRemoval.standardOutput) throws(CommandExit) {
        let removed: Bool
        do {
            removed = store.exists ? try store.persistence.delete(id: id) : false
        } catch {
            throw CommandExit.storeFailed(error)
        }
        guard removed else {
            StandardError.line("cdscript: no stored countdown has the id '\(VisibleText.escaped(id))' (in \(store.location))")
            throw CommandExit(.unknownCountdown)
        }
        report("cancelled \(VisibleText.escaped(id))")
        if let status = store.finishCommand() { throw CommandExit(status) }
    }

    /// Cancels every countdown whose id `pattern` matches (every one when it is
    /// nil), in slices: exit 7 when a pattern matches none, 6 when a slice failed.
    public static func cancelAll(matching pattern: IDPattern?, in store: SharedStore, report: (String) -> Void = StoreRemoval.standardOutput) throws(CommandExit) {
        let removed: [String]
        do {
            removed = store.exists ? try store.persistence.cancelAll(matching: pattern) : []
        } catch let partial as PartialDeleteError {
            StandardError.line("cdscript: \(partial)")
            throw CommandExit(.storeError)
        } catch {
            throw CommandExit.storeFailed(error)
        }
        if let pattern, removed.isEmpty {
            StandardError.line("cdscript: no stored countdown's id matches '\(VisibleText.escaped(pattern.text))' (in \(store.location))")
            throw CommandExit(.unknownCountdown)
        }
        report("cancelled \(removed.count) countdown\(removed.count == 1 ? "" : "s")")
        if let status = store.finishCommand() { throw CommandExit(status) }
    }
}
