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
        return try removeCandidates(finished: finishedIDs, unreadable: unreadableFound, at: now)
    }

    /// The second half of every `clear`: each id found finished is removed by a
    /// change of its own, only if it is still finished by `now` (another process
    /// may have resumed or appended to it since it was read), and each unreadable
    /// record is deleted. Returns what was removed.
    public func removeCandidates(finished ids: [String], unreadable records: [UnreadableCountdown],
                                 at now: StoreInstant) throws -> (finished: [String], unreadable: [UnreadableCountdown]) {
        var finished: [String] = []
        for id in ids {
            let removed = try modify(id: id) { stored -> Bool in
                guard let current = stored, current.effectiveState(at: now) == .finished else { return false }
                stored = nil
                return true
            }
            if removed { finished.append(id) }
        }
        var unreadable: [UnreadableCountdown] = []
        for record in records where try delete(id: record.id) {
            unreadable.append(record)
        }
        return (finished, unreadable)
    }
}
