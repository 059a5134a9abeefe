extension CountdownStoreBackend {
    /// One pass over `listing()`, then each candidate removed by a change of
    /// its own, only if it still qualifies (another process may have resumed
    /// or appended to it in between). A store that can do it in fewer
    /// transactions (SQLite) implements it itself.
    public func clear(at now: StoreInstant) throws -> (finished: [String], unreadable: [UnreadableCountdown]) {
        let listing = try listing()
        var finished: [String] = []
        for record in listing.countdowns where record.effectiveState(at: now) == .finished {
            let removed = try modify(id: record.id) { stored -> Bool in
                guard let current = stored, current.effectiveState(at: now) == .finished else { return false }
                stored = nil
                return true
            }
            if removed { finished.append(record.id) }
        }
        var unreadable: [UnreadableCountdown] = []
        for record in listing.unreadable where try delete(id: record.id) {
            unreadable.append(record)
        }
        return (finished, unreadable)
    }
}
