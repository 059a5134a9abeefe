import CountdownCore

/// `countdown.cancel_all()` with many persistent countdowns running: the stored
/// records it removes are removed together when it returns (`deleteAll`: one
/// transaction or pipeline per slice), not with a commit apiece (a million took
/// hours). Before anything else reaches the store (a done hook's fetch or start,
/// `os.exit`), what is held is removed first, so nothing reads around it.
extension StoreBinding {
    /// Runs `cancel` (the scheduler's cancel of every countdown) with the removals
    /// of stored countdowns held, then removes them together.
    func removingTogether(_ cancel: () -> Void) {
        if holdingDeletes { return cancel() }
        // Starts held before are older than these removals: written first.
        if !heldSaves.isEmpty { writeHeldSaves() }
        holdingDeletes = true
        Self.exitWriter = Unmanaged.passUnretained(self).toOpaque()
        cancel()
        holdingDeletes = false
        if Self.exitWriter == Unmanaged.passUnretained(self).toOpaque() { Self.exitWriter = nil }
        writeHeldDeletes()
    }

    /// Holds the removal of `id` while `removingTogether` runs; false when it must be made now.
    func holdDelete(_ id: String) -> Bool {
        guard holdingDeletes else { return false }
        heldDeletes.append(id)
        return true
    }

    /// Removes the held ids. A store that fails part way is reported with how many were removed.
    func writeHeldDeletes() {
        guard !heldDeletes.isEmpty else { return }
        let ids = heldDeletes
        heldDeletes = []
        guard let store = configuredStore() else { return }
        writeCount &+= 1
        do {
            _ = try store.deleteAll(ids: ids)
        } catch let partial as PartialDeleteError {
            reportError("\(partial.underlying) (\(partial.removed.count) of the \(ids.count) countdowns cancelled together were removed from the store)")
        } catch {
            reportError("\(error)")
        }
    }
}
