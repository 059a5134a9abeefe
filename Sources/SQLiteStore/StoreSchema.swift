import CountdownCore
import GRDB

/// The store's tables, one migration per schema version. A migration is never
/// changed once released; a new version adds one. `PRAGMA user_version` mirrors
/// the version for tools that do not know GRDB's migration table.
enum StoreSchema {
    /// The newest schema this build knows.
    static let version = 4

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
        // Every change to a countdown row, in commit order, written by triggers so
        // that every writer (the sqlite3 shell too) is logged: a process that
        // follows the store reads the entries past the last one it saw and
        // re-reads only those countdowns (`ChangeLog.swift`), whatever it holds.
        migrator.registerMigration("v2") { db in
            try db.execute(sql: """
                CREATE TABLE countdown_change (seq INTEGER PRIMARY KEY, id NOT NULL);
                CREATE TRIGGER countdown_inserted AFTER INSERT ON countdown
                    BEGIN INSERT INTO countdown_change (id) VALUES (new.id); END;
                CREATE TRIGGER countdown_updated AFTER UPDATE ON countdown
                    BEGIN
                        INSERT INTO countdown_change (id) VALUES (new.id);
                        INSERT INTO countdown_change (id) SELECT old.id WHERE old.id IS NOT new.id;
                    END;
                CREATE TRIGGER countdown_deleted AFTER DELETE ON countdown
                    BEGIN INSERT INTO countdown_change (id) VALUES (old.id); END;
                PRAGMA user_version = 2;
                """)
        }
        // End claims and overtime (issue 37).
        migrator.registerMigration("v3") { db in
            try db.execute(sql: EndClaimTable.creation + "\nPRAGMA user_version = 3;")
        }
        // Overtime kept in the store (issue 37): rows written before read as not overtime.
        migrator.registerMigration("v4") { db in
            try db.execute(sql: """
                ALTER TABLE countdown ADD COLUMN overtime INTEGER NOT NULL DEFAULT 0 CHECK (overtime IN (0, 1));
                PRAGMA user_version = 4;
                """)
        }
        return migrator
    }
}

extension StoredCountdown {
    /// Decodes a row and checks it against `CountdownRange`, the one validation
    /// both stores share. A value of the wrong type or out of range is reported
    /// with the row's id, the column, the value and the bound; nothing traps.
    init(row: Row, path: String) throws(StoreError) {
        func unreadable(_ problem: String) -> StoreError {
            let idValue = (row["id"] as DatabaseValue?) ?? .null
            let id: String, idIsText: Bool
            if case .string(let text) = idValue.storage { (id, idIsText) = (text, true) } else { (id, idIsText) = ("\(idValue)", false) }
            return StoreError(unreadable: UnreadableCountdown(id: id, idIsText: idIsText, location: path, problem: problem))
        }
        func bad(_ column: String, _ value: DatabaseValue, _ why: String) -> StoreError {
            unreadable("column " + StoredValueError(field: column, value: "\(value)", reason: why).description)
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
        func integer(_ column: String) throws(StoreError) -> Int64 {
            let v = value(column)
            guard case .int64(let n) = v.storage else { throw bad(column, v, "expected an integer (nanoseconds)") }
            return n
        }
        func optionalInteger(_ column: String) throws(StoreError) -> Int64? {
            value(column).isNull ? nil : try integer(column)
        }
        // Absent from a row read without the column (a copy made before "v4"): not overtime.
        func overtimeFlag() throws(StoreError) -> Bool {
            let v = value("overtime")
            if v.isNull { return false }
            guard case .int64(let n) = v.storage, n == 0 || n == 1 else { throw bad("overtime", v, "expected 0 or 1") }
            return n == 1
        }
        let id = try text("id")
        let stateText = try text("state")
        let kindText = try text("kind")
        guard let state = State(rawValue: stateText) else { throw bad("state", value("state"), "expected running, paused or finished") }
        guard let kind = Kind(rawValue: kindText) else { throw bad("kind", value("kind"), "expected duration or wall") }
        self.init(
            id: id, state: state, kind: kind,
            wallDeadline: try integer("wall_deadline"), pausedRemaining: try optionalInteger("paused_remaining"),
            every: try integer("every"), total: try integer("total"),
            bootID: try optionalText("boot_id"), bootDeadline: try optionalInteger("boot_deadline"),
            updatedAt: try integer("updated_at"), overtime: try overtimeFlag())
        do {
            try CountdownRange.check(self)
        } catch {
            throw unreadable("column \(error)")
        }
    }

    var arguments: StatementArguments {
        [id, state.rawValue, kind.rawValue, wallDeadline, pausedRemaining, every, total, bootID, bootDeadline, updatedAt, overtime ? 1 : 0]
    }

    /// Writes a row from `arguments`, replacing the one under its id.
    static let upsertSQL = """
        INSERT OR REPLACE INTO countdown
            (id, state, kind, wall_deadline, paused_remaining, every, total, boot_id, boot_deadline, updated_at, overtime)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """
}
