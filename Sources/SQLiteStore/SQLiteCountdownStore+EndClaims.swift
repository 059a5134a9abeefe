import CountdownCore
import GRDB

/// The `end_claim` table (schema v3): per stored countdown, its last claimed
/// end, who holds it until when, the fencing token and whether its action is done.
enum EndClaimTable {
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
}

/// End claims in SQLite: each one transaction (IMMEDIATE, as every write here),
/// the claim itself one conditional UPDATE ... WHERE claimed_by IS NULL, so
/// that of any number of processes exactly one sees it change a row.
extension SQLiteCountdownStore: EndClaiming {
    public func recordEndAndClaim(id: String, record: ((inout StoredCountdown?) -> Void)?, fallbackEnd: Nanoseconds,
                                  owner: String, lease: Nanoseconds, now: StoreInstant) throws -> (end: Nanoseconds, outcome: EndClaimOutcome) {
        try access { db in
            // The end is recorded in the claim's transaction: no process can claim
            // an end the store does not show yet.
            let before = try Row.fetchOne(db, sql: "SELECT * FROM countdown WHERE id = ?", arguments: [id])
                .map { row throws(StoreError) in try StoredCountdown(row: row, path: path) }
            var after = before
            record?(&after)
            if let after, after != before {
                try db.execute(sql: StoredCountdown.upsertSQL, arguments: after.arguments)
            }
            let end = EndClaimRules.end(of: after, fallback: fallbackEnd)
            return (end, try Self.claim(db, id: id, end: end, owner: owner, lease: lease, wallNow: now.wall))
        }
    }

    public func claimEnd(id: String, end: Nanoseconds, owner: String, lease: Nanoseconds, now: StoreInstant) throws -> EndClaimOutcome {
        try access { db in try Self.claim(db, id: id, end: end, owner: owner, lease: lease, wallNow: now.wall) }
    }

    public func renewEndClaim(_ claim: EndClaim, owner: String, lease: Nanoseconds, now: StoreInstant) throws -> Bool {
        try access { db in
            try db.execute(sql: """
                UPDATE end_claim SET lease_until = ? WHERE id = ? AND token = ? AND claimed_by = ? AND done = 0
                """, arguments: [now.wall + lease, claim.id, claim.token, owner])
            return db.changesCount == 1
        }
    }

    public func finishEndClaim(_ claim: EndClaim, owner: String, now: StoreInstant) throws -> Bool {
        try access { db in
            try db.execute(sql: """
                UPDATE end_claim SET done = 1, claimed_by = NULL WHERE id = ? AND token = ? AND claimed_by = ? AND done = 0
                """, arguments: [claim.id, claim.token, owner])
            return db.changesCount == 1
        }
    }

    private static func claim(_ db: Database, id: String, end: Nanoseconds, owner: String, lease: Nanoseconds,
                              wallNow: Nanoseconds) throws -> EndClaimOutcome {
        let same = EndClaimRules.sameEnd
        try db.execute(sql: "INSERT OR IGNORE INTO end_claim (id, end_at) VALUES (?, ?)", arguments: [id, end])
        // A later end than the one claimed last: a new claim (the token keeps growing).
        try db.execute(sql: """
            UPDATE end_claim SET end_at = ?, claimed_by = NULL, lease_until = 0, done = 0 WHERE id = ? AND ? - end_at >= ?
            """, arguments: [end, id, end, same])
        // A claimant whose lease passed without the action marked done lost it.
        try db.execute(sql: """
            UPDATE end_claim SET claimed_by = NULL WHERE id = ? AND done = 0 AND claimed_by IS NOT NULL AND lease_until <= ?
            """, arguments: [id, wallNow])
        try db.execute(sql: """
            UPDATE end_claim SET claimed_by = ?, lease_until = ?, token = token + 1
            WHERE id = ? AND claimed_by IS NULL AND done = 0 AND abs(end_at - ?) < ?
            """, arguments: [owner, wallNow + lease, id, end, same])
        let won = db.changesCount == 1
        guard let row = try Row.fetchOne(db, sql: "SELECT end_at, lease_until, token, done FROM end_claim WHERE id = ?", arguments: [id]) else {
            return .done
        }
        let storedEnd: Int64 = row["end_at"], token: Int64 = row["token"], done: Int64 = row["done"], until: Int64 = row["lease_until"]
        if won { return .won(EndClaim(id: id, end: storedEnd, token: token)) }
        if done != 0 || storedEnd - end >= same { return .done }
        return .held(leaseLeft: max(0, until - wallNow))
    }
}
