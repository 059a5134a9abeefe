import CountdownCore
import GRDB

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
            let rows = try Row.fetchCursor(db, sql: StoredCountdown.selectSQL + " ORDER BY id")
            var batch = StoredCountdownListing(countdowns: [])
            while let row = try rows.next() {
                do {
                    batch.countdowns.append(try StoredCountdown(columnsOf: row, path: path))
                } catch let error as StoreError {
                    guard let unreadable = error.unreadable else { throw error }
                    batch.unreadable.append(unreadable)
                }
                if batch.countdowns.count + batch.unreadable.count >= size {
                    guard try body(batch) else { return }
                    batch = StoredCountdownListing(countdowns: [])
                }
            }
            if !batch.countdowns.isEmpty || !batch.unreadable.isEmpty { _ = try body(batch) }
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
            let rows = try Row.fetchCursor(db, sql: StoredCountdown.selectWithRowIDSQL + " ORDER BY id")
            while let row = try rows.next() {
                do {
                    let countdown = try StoredCountdown(columnsOf: row, path: path)
                    if countdown.effectiveState(at: now) == .finished { finished.append(countdown.id) }
                } catch let error as StoreError {
                    guard error.unreadable != nil else { throw error }
                    unreadable.append(row[rowIDIndex])
                }
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
                try db.execute(sql: "DELETE FROM countdown WHERE id = ?", arguments: [id])
                finished.append(id)
            }
            var removed: [UnreadableCountdown] = []
            let byRowID = try db.cachedStatement(sql: StoredCountdown.selectWithRowIDSQL + " WHERE rowid = ?")
            for rowid in unreadableRows {
                guard let row = try Row.fetchOne(byRowID, arguments: [rowid]) else { continue }
                do {
                    _ = try StoredCountdown(columnsOf: row, path: path)
                } catch let error as StoreError {
                    guard let unreadable = error.unreadable else { throw error }
                    try db.execute(sql: "DELETE FROM countdown WHERE rowid = ?", arguments: [rowid])
                    removed.append(unreadable)
                }
            }
            return (finished, removed)
        }
    }
}
