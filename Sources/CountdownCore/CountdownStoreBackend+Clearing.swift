extension CountdownStoreBackend {
    /// One pass over the store in batches (`forEachListed`), then each candidate removed by a change of
    /// its own, only if it still qualifies (another process may have resumed
    /// or appended to it in between). A store that can do it in fewer
    /// transactions (SQLite) implements it itself.
    public func clear(at now: StoreInstant) throws -> (finished: [String], unreadable: [UnreadableCountdown]) {
        // Read in batches, keeping only what qualifies: clearing nothing from a large
        // store holds no more than a batch of records.
        var finishedIDs: [String] = []
        var unreadableFound: [UnreadableCountdown] = []
        try forEachListed(batchSize: 1000) { batch in
            for record in batch.countdowns where record.effectiveState(at: now) == .finished { finishedIDs.append(record.id) }
            unreadableFound += batch.unreadable
            return true
        }
        var finished: [String] = []
        for id in finishedIDs {
            let removed = try modify(id: id) { stored -> Bool in
                guard let current = stored, current.effectiveState(at: now) == .finished else { return false }
                stored = nil
                return true
            }
            if removed { finished.append(id) }
        }
        var unreadable: [UnreadableCountdown] = []
        for record in unreadableFound where try delete(id: record.id) {
            unreadable.append(record)
        }
        return (finished, unreadable)
    }
}
