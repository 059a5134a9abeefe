import CountdownCore
import SQLiteAccess

/// Removing many countdowns at once (`cdscript cancel --all`, `countdown.cancel_all()`):
/// one transaction per `deleteSlice` ids instead of a commit (and an fsync) apiece, then
/// the write-ahead log checkpointed and truncated, so that it does not stay as large as
/// what was removed.
extension SQLiteCountdownStore {
    public func deleteAll(ids: [String]) throws -> [String] {
        for id in ids { try checkID(id) }
        if ids.isEmpty || isUnopenedEmptyFile { return [] }
        var removed: [String] = []
        var start = 0
        while start < ids.count {
            let slice = ids[start..<min(start + deleteSlice, ids.count)]
            do {
                removed += try access { db -> [String] in
                    let statement = try db.cached("DELETE FROM countdown WHERE id = ?")
                    var gone: [String] = []
                    for id in slice {
                        try statement.run([.text(id)])
                        if db.changes > 0 { gone.append(id) }
                    }
                    return gone
                }
            } catch {
                throw PartialDeleteError(removed: removed, underlying: error)
            }
            start = slice.endIndex
        }
        if ids.count > deleteSlice { truncateWriteAheadLog() }
        return removed
    }

    /// After a bulk write: copies the write-ahead log into the database and empties
    /// it. Best effort: with a reader in the middle of a transaction, SQLite leaves
    /// the log as it is and the next checkpoint does it.
    public func truncateWriteAheadLog() {
        _ = try? access(single: true) { db in try db.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
    }
}
