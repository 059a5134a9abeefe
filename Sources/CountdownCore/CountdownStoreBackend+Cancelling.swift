extension CountdownStoreBackend {
    /// Removes every stored countdown whose id `pattern` matches (every one when nil),
    /// unreadable records whose id is text included (a record is named by its id, whatever it holds):
    /// the store is read in batches and the ids removed in slices (`deleteAll`), so a
    /// million take seconds and a batch, not the store, is held. Returns the ids removed. A countdown stored meanwhile by another process may stay.
    public func cancelAll(matching pattern: IDPattern?) throws -> [String] {
        var ids: [String] = []
        try forEachListed(batchSize: deleteSlice) { batch in
            for record in batch.countdowns where pattern?.matches(record.id) ?? true { ids.append(record.id) }
            for record in batch.unreadable where record.idIsText && pattern?.matches(record.id) ?? true { ids.append(record.id) }
            return true
        }
        return try deleteAll(ids: ids)
    }
}
