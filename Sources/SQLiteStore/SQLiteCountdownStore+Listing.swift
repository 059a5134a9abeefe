import CountdownCore
import SQLiteAccess

/// Reading every countdown without holding them all: `cdscript list` streams
/// them, and `cdscript clear` looks for what to remove before it writes anything.
extension SQLiteCountdownStore {
    /// Every row in id order, a batch at a time, from one read transaction (a
    /// consistent picture, which in WAL mode never waits for a writer nor holds
    /// one up). Rows come from a cursor: a batch is all that is held.
    public func forEachListed(batchSize: Int, _ body: (StoredCountdownListing) throws -> Bool) throws {
        if isUnopenedEmptyFile { return }
        let size = max(1, batchSize)
        try access(readOnly: true) { db in
            var batch = StoredCountdownListing(countdowns: [])
            var wantsMore = true
            try db.cached(StoredCountdown.selectSQL + " ORDER BY id").forEachRow { row in
                do {
                    batch.countdowns.append(try StoredCountdown(columnsOf: row, path: path))
                } catch let error as StoreError {
                    guard let unreadable = error.unreadable else { throw error }
                    batch.unreadable.append(unreadable)
                }
                if batch.countdowns.count + batch.unreadable.count >= size {
                    wantsMore = try body(batch)
                    batch = StoredCountdownListing(countdowns: [])
                }
                return wantsMore
            }
            if wantsMore, !batch.countdowns.isEmpty || !batch.unreadable.isEmpty { _ = try body(batch) }
        }
    }

    /// What `cdscript clear` removes, in one pass: the countdowns finished by
    /// `now` (ids, in id order) and the rows that cannot be read. Candidates are
    /// found in a read transaction; only when there are some does a write
    /// transaction take each again and remove it if it still qualifies (another
    /// process may have changed it in between). With nothing to clear nothing is
    /// written and no watcher is woken.
    public func clear(at now: StoreInstant) throws -> (finished: [String], unreadable: [UnreadableCountdown]) {
        if isUnopenedEmptyFile { return ([], []) }
        // Through `access`, which migrates first: every row has `columns`, read by position.
        let rowIDIndex = StoredCountdown.columns.count
        let (finishedIDs, unreadableRows) = try access(readOnly: true) { db -> ([String], [Int64]) in
            var finished: [String] = []
            var unreadable: [Int64] = []
            try db.cached(StoredCountdown.selectWithRowIDSQL + " ORDER BY id").forEachRow { row in
                do {
                    let countdown = try StoredCountdown(columnsOf: row, path: path)
                    if countdown.effectiveState(at: now) == .finished { finished.append(countdown.id) }
                } catch let error as StoreError {
                    guard error.unreadable != nil else { throw error }
                    if let rowid = row.value(at: rowIDIndex).integer { unreadable.append(rowid) }
                }
                return true
            }
            return (finished, unreadable)
        }
        guard !finishedIDs.isEmpty || !unreadableRows.isEmpty else { return ([], []) }
        return try access { db in
            var finished: [String] = []
            for id in finishedIDs {
                let countdown: StoredCountdown?
                do {
                    countdown = try readRow(id: id, db)
                } catch let error as StoreError where error.unreadable != nil {
                    continue  // unreadable since: not finished, and not this pass's to remove
                }
                guard let countdown, countdown.effectiveState(at: now) == .finished else { continue }
                try db.execute("DELETE FROM countdown WHERE id = ?", [.text(id)])
                finished.append(id)
            }
            var removed: [UnreadableCountdown] = []
            let byRowID = try db.cached(StoredCountdown.selectWithRowIDSQL + " WHERE rowid = ?")
            for rowid in unreadableRows {
                let unreadable: UnreadableCountdown? = try {
                    try byRowID.bind([.integer(rowid)])
                    defer { byRowID.reset() }
                    guard try byRowID.step() else { return nil }
                    do {
                        _ = try StoredCountdown(columnsOf: byRowID, path: path)
                        return nil
                    } catch let error as StoreError {
                        guard let unreadable = error.unreadable else { throw error }
                        return unreadable
                    }
                }()
                guard let unreadable else { continue }
                try db.execute("DELETE FROM countdown WHERE rowid = ?", [.integer(rowid)])
                removed.append(unreadable)
            }
            return (finished, removed)
        }
    }
}
