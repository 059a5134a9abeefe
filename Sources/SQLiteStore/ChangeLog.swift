import CountdownCore
import SQLiteAccess

/// The change log (`countdown_change`, schema v2): triggers append the id of
/// every countdown row inserted, updated or deleted, so that a process following
/// the store learns which countdowns changed by reading the entries past the last
/// one it saw, and re-reads only those: one change elsewhere costs it a row or
/// two, whether it holds ten countdowns or a hundred thousand.
///
/// Entries are numbered in commit order (`seq`, SQLite's rowid: the largest
/// plus one, and the largest is never removed). Writers keep the last
/// `ChangeLog.window` of them; a follower that fell further behind (or finds the
/// log emptied by hand) is told `.unknown` and re-reads what it holds.
public enum ChangeLog {
    /// Entries kept: a follower more than this many changes behind re-reads
    /// everything it holds, which costs what that many changes would.
    public static let window: Int64 = 10_000
    /// More ids changed than this at once are reported as `.unknown`: re-reading
    /// what a process holds in one pass is cheaper than as many single reads.
    public static let largestReport = 2_000
}

extension SQLiteCountdownStore {
    /// The last entry of the change log, 0 when it is empty.
    static func lastChange(_ db: SQLiteConnection) throws -> Int64 {
        try db.value("SELECT max(seq) FROM countdown_change")?.integer ?? 0
    }

    /// After a write transaction's body changed rows: entries older than the
    /// window go, and when this process had seen every entry before its own
    /// (`logBefore`), its own are taken as seen: it is never told of its own changes.
    func wroteChanges(_ db: SQLiteConnection, logBefore: Int64?) throws {
        let last = try Self.lastChange(db)
        if last > ChangeLog.window {
            try db.execute("DELETE FROM countdown_change WHERE seq <= ?", [.integer(last - ChangeLog.window)])
        }
        if let logBefore, changeLogPosition == logBefore { changeLogPosition = last }
    }

    /// From now on the change log is followed: the entries so far are taken as seen.
    func startFollowingChanges() {
        dropReadAhead()
        guard let db = try? open() else { return }
        changeLogPosition = (try? Self.lastChange(db)) ?? 0
    }

    /// The countdowns changed since the last look (or since following started),
    /// by the change log; `.unknown` when the log cannot tell (this process fell
    /// more than `ChangeLog.window` behind, the log was emptied, or it cannot be read).
    func changesSinceLastLook() -> CountdownChanges {
        dropReadAhead()
        guard let db = try? open() else { return .unknown }
        guard let from = changeLogPosition else {
            startFollowingChanges()
            return .unknown
        }
        do {
            return try db.transaction(.deferred) { () throws -> CountdownChanges in
                let last = try Self.lastChange(db)
                if last == from { return .none }
                changeLogPosition = last
                guard last > from, last - from <= ChangeLog.window else { return .unknown }
                let first = try db.value("SELECT min(seq) FROM countdown_change")?.integer ?? 0
                // Entries past `from` were removed: some changes cannot be named.
                guard first <= from + 1 else { return .unknown }
                var ids: Set<CountdownID> = []
                var tooMany = false
                try db.cached("SELECT id FROM countdown_change WHERE seq > ?").forEachRow([.integer(from)]) { row in
                    rowsRead += 1
                    // An id that is not text names no countdown a process can hold.
                    if let id = row.value(at: 0).text { ids.insert(CountdownID(id)) }
                    tooMany = ids.count > ChangeLog.largestReport
                    return !tooMany
                }
                if tooMany { return .unknown }
                return ids.isEmpty ? .none : .ids(ids)
            }
        } catch {
            changeLogPosition = nil
            return .unknown
        }
    }

    /// Reads the countdowns stored under `ids` in one read transaction: each id's
    /// record (nil: none stored) or why it cannot be read.
    public func loadEach(ids: [String]) throws -> [(id: String, record: Swift.Result<StoredCountdown?, any Error>)] {
        if ids.isEmpty || isUnopenedEmptyFile { return ids.map { ($0, .success(nil)) } }
        return try access(readOnly: true) { db in
            ids.map { id in
                (id, Swift.Result { () throws -> StoredCountdown? in
                    guard !id.utf8.contains(0) else { return nil }
                    return try self.readRow(id: id, db)
                })
            }
        }
    }
}
