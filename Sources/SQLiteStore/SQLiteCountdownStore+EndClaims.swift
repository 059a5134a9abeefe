import CountdownCore
import SQLiteAccess

/// The `end_claim` table: per stored countdown, the end claimed last (named by
/// the finished record's `end_at` deadline and `changed_at` stamp, as stored),
/// who holds it until when, the fencing token and whether its action is done.
enum EndClaimTable {
    /// Schema v3.
    static let creation = """
        CREATE TABLE end_claim (
            id TEXT PRIMARY KEY NOT NULL,
            end_at INTEGER NOT NULL,
            claimed_by TEXT,
            lease_until INTEGER NOT NULL DEFAULT 0,
            token INTEGER NOT NULL DEFAULT 0,
            done INTEGER NOT NULL DEFAULT 0 CHECK (done IN (0, 1))
        );
        """
    /// Schema v5 (issue 48): an end is named by the record as stored, not by a
    /// process's wall clock (`changed_at` joins `end_at`), and `lease_until` is
    /// an instant on the boot clock of boot `lease_boot` (the processes sharing a
    /// state folder share the machine's boot clock, whatever their wall clocks
    /// say). A lease written before (no `lease_boot`) counts as passed.
    static let v5 = """
        ALTER TABLE end_claim ADD COLUMN changed_at INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE end_claim ADD COLUMN lease_boot TEXT;
        UPDATE end_claim SET lease_until = 0;
        """
    /// Schema v7 (issue 50): the exit status the claimant recorded when it marked
    /// the action done, which the processes that waited on the end exit with.
    /// NULL: none recorded (an action done before v7, or one that has no status).
    static let v7 = """
        ALTER TABLE end_claim ADD COLUMN action_status INTEGER;
        """
}

/// End claims in SQLite: each one transaction (IMMEDIATE, as every write here)
/// that reads the countdown's row and its claim row and applies
/// `EndClaimRow.claim`, the rule the in-memory store applies too; the write
/// lock makes one process's read-and-claim one step for all the others.
extension SQLiteCountdownStore: EndClaiming {
    public func recordEndAndClaim(id: String, record: ((inout StoredCountdown?) -> Void)?,
                                  owner: String, lease: Nanoseconds, now: StoreInstant) throws -> EndClaimOutcome {
        try access { db in
            // The end is recorded in the claim's transaction: no process can claim
            // an end the store does not show yet.
            let before = try Self.countdown(db, id: id, path: path)
            var after = before
            record?(&after)
            if let after, after != before {
                try db.execute(StoredCountdown.upsertSQL, after.arguments)
            }
            return try Self.claim(db, id: id, expected: nil, current: EndName(finished: after), owner: owner, lease: lease, now: now)
        }
    }

    public func claimEnd(id: String, expected: EndName?, owner: String, lease: Nanoseconds, now: StoreInstant) throws -> EndClaimOutcome {
        try access { db in
            let current = EndName(finished: try Self.countdown(db, id: id, path: path))
            return try Self.claim(db, id: id, expected: expected, current: current, owner: owner, lease: lease, now: now)
        }
    }

    public func renewEndClaim(_ claim: EndClaim, owner: String, lease: Nanoseconds, now: StoreInstant) throws -> Bool {
        try access { db in
            try db.execute("""
                UPDATE end_claim SET lease_until = ?, lease_boot = ?
                WHERE id = ? AND token = ? AND claimed_by = ? AND done = 0 AND end_at = ? AND changed_at = ?
                """, [.integer(now.boot + lease), SQLiteValue(now.bootID), .text(claim.id), .integer(claim.token), .text(owner),
                      .integer(claim.name.deadline), .integer(claim.name.changedAt)])
            return db.changes == 1
        }
    }

    public func finishEndClaim(_ claim: EndClaim, owner: String, status: Int32?, now: StoreInstant) throws -> Bool {
        try access { db in
            try db.execute("""
                UPDATE end_claim SET done = 1, claimed_by = NULL, action_status = ?
                WHERE id = ? AND token = ? AND claimed_by = ? AND done = 0 AND end_at = ? AND changed_at = ?
                """, [SQLiteValue(status), .text(claim.id), .integer(claim.token), .text(owner),
                      .integer(claim.name.deadline), .integer(claim.name.changedAt)])
            return db.changes == 1
        }
    }

    /// The countdown's row; one that cannot be read names no end (nil).
    private static func countdown(_ db: SQLiteConnection, id: String, path: String) throws -> StoredCountdown? {
        try db.cached("SELECT * FROM countdown WHERE id = ?").firstRow([.text(id)])
            .flatMap { row in try? StoredCountdown(row: row, path: path) }
    }

    private static func claim(_ db: SQLiteConnection, id: String, expected: EndName?, current: EndName?, owner: String,
                              lease: Nanoseconds, now: StoreInstant) throws -> EndClaimOutcome {
        var row = try db.cached("""
            SELECT end_at, changed_at, claimed_by, lease_until, lease_boot, token, done, action_status FROM end_claim WHERE id = ?
            """).firstRow([.text(id)]).map { r throws in try claimRow(r, id: id) }
        let outcome = EndClaimRow.claim(&row, expected: expected, current: current, owner: owner, lease: lease, now: now)
        guard case .won(var claim) = outcome, let row else { return outcome }
        try db.execute("""
            INSERT OR REPLACE INTO end_claim (id, end_at, changed_at, claimed_by, lease_until, lease_boot, token, done, action_status)
            VALUES (?, ?, ?, ?, ?, ?, ?, 0, NULL)
            """, [.text(id), .integer(row.name.deadline), .integer(row.name.changedAt), SQLiteValue(row.owner), .integer(row.leaseUntil),
                  SQLiteValue(row.leaseBoot), .integer(row.token)])
        claim.id = id
        return .won(claim)
    }

    /// Reads a claim row; a value of the wrong type is damage, named by its column
    /// (nothing traps on it).
    private static func claimRow(_ r: SQLiteRow, id: String) throws -> EndClaimRow {
        func integer(_ column: String) throws -> Int64 {
            let value = r[column]
            guard case .integer(let n) = value else {
                throw EndClaimDamage(key: "end_claim '\(VisibleText.escaped(id))'", problem: "column \(column) = \(value): expected an integer")
            }
            return n
        }
        func text(_ column: String) throws -> String? {
            let value = r[column]
            if value.isNull { return nil }
            guard case .text(let s) = value else {
                throw EndClaimDamage(key: "end_claim '\(VisibleText.escaped(id))'", problem: "column \(column) = \(value): expected text or NULL")
            }
            return s
        }
        let done = try integer("done")
        guard done == 0 || done == 1 else {
            throw EndClaimDamage(key: "end_claim '\(VisibleText.escaped(id))'", problem: "column done = \(done): expected 0 or 1")
        }
        let statusValue = r["action_status"]
        var status: Int32?
        if !statusValue.isNull {
            guard case .integer(let n) = statusValue, let fits = Int32(exactly: n) else {
                throw EndClaimDamage(key: "end_claim '\(VisibleText.escaped(id))'", problem: "column action_status = \(statusValue): expected an exit status or NULL")
            }
            status = fits
        }
        return EndClaimRow(name: EndName(deadline: try integer("end_at"), changedAt: try integer("changed_at")), owner: try text("claimed_by"),
                           leaseUntil: try integer("lease_until"), leaseBoot: try text("lease_boot"), token: try integer("token"), done: done == 1,
                           status: status)
    }
}
