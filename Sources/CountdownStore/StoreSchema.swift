import CountdownCore
import GRDB

/// The store's tables, one migration per schema version. A migration is never
/// changed once released; a new version adds one. `PRAGMA user_version` mirrors
/// the version for tools that do not know GRDB's migration table.
enum StoreSchema {
    /// The newest schema this build knows.
    static let version = 1

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE countdown (
                    id TEXT PRIMARY KEY NOT NULL,
                    state TEXT NOT NULL CHECK (state IN ('running', 'paused', 'finished')),
                    kind TEXT NOT NULL CHECK (kind IN ('duration', 'wall')),
                    wall_deadline INTEGER NOT NULL,
                    paused_remaining INTEGER,
                    every INTEGER NOT NULL CHECK (every > 0),
                    total INTEGER NOT NULL,
                    boot_id TEXT,
                    boot_deadline INTEGER,
                    updated_at INTEGER NOT NULL
                );
                PRAGMA user_version = 1;
                """)
        }
        return migrator
    }
}

extension StoredCountdown {
    /// The largest magnitude a stored instant or duration may have: the host's
    /// own bound on durations (2^61 ns, 73 years), so that every sum and
    /// difference the scheduler and the listing make stays far from overflow.
    static let storedBound: Int64 = Time.maximumDuration
    /// Shortest tick interval a countdown can have (countdown.start refuses less).
    static let minimumEvery: Int64 = 1_000_000

    /// Decodes and range-checks a row. A value of the wrong type or out of range
    /// is reported with the row's id, the column and the value; nothing traps.
    init(row: Row, path: String) throws(StoreError) {
        func bad(_ column: String, _ value: DatabaseValue, _ why: String) -> StoreError {
            let id: String
            switch row["id"] as DatabaseValue? {
            case let v? where v.storage.value is String: id = "'\(String.fromDatabaseValue(v) ?? "")'"
            case let v?: id = "\(v)"
            case nil: id = "(none)"
            }
            var shown = "\(value)"
            if shown.count > 60 { shown = String(shown.prefix(60)) + "..." }
            return StoreError(.corrupt, path: path, reason: "countdown \(id.count > 80 ? String(id.prefix(80)) + "..." : id): column \(column) = \(shown): \(why)")
        }
        func value(_ column: String) -> DatabaseValue { (row[column] as DatabaseValue?) ?? .null }
        func text(_ column: String) throws(StoreError) -> String {
            let v = value(column)
            guard case .string(let s) = v.storage else { throw bad(column, v, "expected text") }
            return s
        }
        func optionalText(_ column: String) throws(StoreError) -> String? {
            value(column).isNull ? nil : try text(column)
        }
        func integer(_ column: String, _ range: ClosedRange<Int64>) throws(StoreError) -> Int64 {
            let v = value(column)
            guard case .int64(let n) = v.storage else { throw bad(column, v, "expected an integer (nanoseconds)") }
            guard range.contains(n) else { throw bad(column, v, "out of range \(range.lowerBound)...\(range.upperBound)") }
            return n
        }
        func optionalInteger(_ column: String, _ range: ClosedRange<Int64>) throws(StoreError) -> Int64? {
            value(column).isNull ? nil : try integer(column, range)
        }
        let bound = Self.storedBound
        let id = try text("id")
        let stateText = try text("state")
        let kindText = try text("kind")
        guard let state = State(rawValue: stateText) else { throw bad("state", value("state"), "expected running, paused or finished") }
        guard let kind = Kind(rawValue: kindText) else { throw bad("kind", value("kind"), "expected duration or wall") }
        let wallDeadline = try integer("wall_deadline", -bound...bound)
        let pausedRemaining = try optionalInteger("paused_remaining", 0...bound)
        let every = try integer("every", Self.minimumEvery...bound)
        let total = try integer("total", 0...bound)
        let bootID = try optionalText("boot_id")
        let bootDeadline = try optionalInteger("boot_deadline", -bound...bound)
        let updatedAt = try integer("updated_at", Int64.min...Int64.max)
        if state == .paused, pausedRemaining == nil {
            throw bad("paused_remaining", .null, "a paused countdown needs its remaining time")
        }
        self.init(
            id: id, state: state, kind: kind,
            wallDeadline: wallDeadline, pausedRemaining: pausedRemaining,
            every: every, total: total,
            bootID: bootID, bootDeadline: bootDeadline, updatedAt: updatedAt)
    }

    var arguments: StatementArguments {
        [id, state.rawValue, kind.rawValue, wallDeadline, pausedRemaining, every, total, bootID, bootDeadline, updatedAt]
    }
}
