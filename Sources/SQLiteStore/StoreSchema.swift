import CountdownCore
import SQLiteAccess

/// The store's tables, one migration per schema version. A migration is never
/// changed once released; a new version adds one. `PRAGMA user_version` mirrors
/// the version for tools that do not know the migration table (`grdb_migrations`,
/// named after GRDB, which applied the migrations before `SQLiteMigrator`).
enum StoreSchema {
    /// The newest schema this build knows.
    static let version = 8

    static let migrator: SQLiteMigrator = {
        var migrator = SQLiteMigrator()
        migrator.register("v1", sql: """
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
        // Every change to a countdown row, in commit order, written by triggers so
        // that every writer (the sqlite3 shell too) is logged: a process that
        // follows the store reads the entries past the last one it saw and
        // re-reads only those countdowns (`ChangeLog.swift`), whatever it holds.
        migrator.register("v2", sql: """
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
        // End claims and overtime (issue 37).
        migrator.register("v3", sql: EndClaimTable.creation + "\nPRAGMA user_version = 3;")
        // Overtime kept in the store (issue 37): rows written before read as not overtime.
        migrator.register("v4", sql: """
                ALTER TABLE countdown ADD COLUMN overtime INTEGER NOT NULL DEFAULT 0 CHECK (overtime IN (0, 1));
                PRAGMA user_version = 4;
                """)
        // An end named by the store, a lease on the boot clock (issue 48): see EndClaimTable.
        migrator.register("v5", sql: EndClaimTable.v5 + "\nPRAGMA user_version = 5;")
        // A title and end-action names (issue 49): rows written before have neither.
        migrator.register("v6", sql: """
                ALTER TABLE countdown ADD COLUMN title TEXT;
                ALTER TABLE countdown ADD COLUMN actions TEXT NOT NULL DEFAULT '';
                PRAGMA user_version = 6;
                """)
        // The claimant's exit status, shared with the processes that waited on the end (issue 50).
        migrator.register("v7", sql: EndClaimTable.v7 + "\nPRAGMA user_version = 7;")
        // The same CHECK on `state`, written as equalities (issue 53). SQLite
        // tests `x IN (3 or more constants)` through a temporary index it builds
        // and drops for every row written: a third of what creating a countdown
        // cost. SQLite's documented way to change a CHECK that every row already
        // satisfies is to edit the table's SQL in sqlite_master; the table and
        // drop after it change the schema cookie, so that other connections read
        // the schema again (the migrator makes this one read it again).
        migrator.register("v8", sql: """
                PRAGMA writable_schema = ON;
                UPDATE sqlite_master
                    SET sql = replace(sql, 'CHECK (state IN (''running'', ''paused'', ''finished''))',
                                      'CHECK (state = ''running'' OR state = ''paused'' OR state = ''finished'')')
                    WHERE type = 'table' AND name = 'countdown';
                PRAGMA writable_schema = OFF;
                CREATE TABLE cdscript_schema_changed (x);
                DROP TABLE cdscript_schema_changed;
                PRAGMA user_version = 8;
                """)
        return migrator
    }()
}

extension StoredCountdown {
    /// A countdown row's columns, in the one order every statement here uses:
    /// `selectSQL` selects them so, `init(columnsOf:path:)` reads them by that
    /// position, `upsertSQL` and `arguments` write them so.
    enum Column: Int, CaseIterable {
        case id, state, kind, wallDeadline, pausedRemaining, every, total, bootID, bootDeadline, updatedAt, overtime, title, actions

        /// Its name in the table.
        var name: String {
            switch self {
            case .id: "id"
            case .state: "state"
            case .kind: "kind"
            case .wallDeadline: "wall_deadline"
            case .pausedRemaining: "paused_remaining"
            case .every: "every"
            case .total: "total"
            case .bootID: "boot_id"
            case .bootDeadline: "boot_deadline"
            case .updatedAt: "updated_at"
            case .overtime: "overtime"
            case .title: "title"
            case .actions: "actions"
            }
        }
    }
    /// The columns' names, in `Column` order.
    static let columns = Column.allCases.map(\.name)
    /// Every row's `columns`, in that order (add WHERE or ORDER BY after it).
    static let selectSQL = "SELECT " + columns.joined(separator: ", ") + " FROM countdown"
    /// `selectSQL` with the rowid after the columns (at index `columns.count`), for
    /// rows that cannot be read and so are named by their rowid.
    static let selectWithRowIDSQL = "SELECT " + columns.joined(separator: ", ") + ", rowid FROM countdown"

    /// Decodes a row by column name (a `SELECT *`, or a copy of an older schema
    /// without some columns); see `init(columnsOf:path:)`.
    init(row: SQLiteRow, path: String) throws(StoreError) {
        try self.init(path: path) { index in row[Self.columns[index]] }
    }

    /// Decodes the current row of a `selectSQL` statement by position, straight
    /// from the statement: no column name is looked up and no row is copied.
    init(columnsOf row: SQLiteStatement, path: String) throws(StoreError) {
        let count = row.columnCount
        try self.init(path: path) { index in index < count ? row.value(at: index) : .null }
    }

    /// Decodes a row, given each of `columns` by its index, and checks it against
    /// `CountdownRange`, the one validation both stores share. A value of the wrong
    /// type or out of range is reported with the row's id, the column, the value
    /// and the bound; nothing traps.
    @inline(__always)
    private init(path: String, value: (Int) -> SQLiteValue) throws(StoreError) {
        func column(_ c: Column) -> SQLiteValue { value(c.rawValue) }
        func unreadable(_ problem: String) -> StoreError {
            let idValue = column(.id)
            let id: String, idIsText: Bool
            if case .text(let text) = idValue { (id, idIsText) = (text, true) } else { (id, idIsText) = ("\(idValue)", false) }
            return StoreError(unreadable: UnreadableCountdown(id: id, idIsText: idIsText, location: path, problem: problem))
        }
        func bad(_ c: Column, _ value: SQLiteValue, _ why: String) -> StoreError {
            unreadable("column " + StoredValueError(field: c.name, value: "\(value)", reason: why).description)
        }
        func text(_ c: Column) throws(StoreError) -> String {
            let v = column(c)
            guard case .text(let s) = v else { throw bad(c, v, "expected text") }
            return s
        }
        func optionalText(_ c: Column) throws(StoreError) -> String? {
            column(c).isNull ? nil : try text(c)
        }
        func integer(_ c: Column) throws(StoreError) -> Int64 {
            let v = column(c)
            guard case .integer(let n) = v else { throw bad(c, v, "expected an integer (nanoseconds)") }
            return n
        }
        func optionalInteger(_ c: Column) throws(StoreError) -> Int64? {
            column(c).isNull ? nil : try integer(c)
        }
        // Absent from a row read without the column (a copy made before "v4"): not overtime.
        func overtimeFlag() throws(StoreError) -> Bool {
            let v = column(.overtime)
            if v.isNull { return false }
            guard case .integer(let n) = v, n == 0 || n == 1 else { throw bad(.overtime, v, "expected 0 or 1") }
            return n == 1
        }
        // Absent from a row read without the column (a copy made before "v6"): none.
        func actionNames() throws(StoreError) -> [String] {
            let v = column(.actions)
            if v.isNull { return [] }
            guard case .text(let s) = v else { throw bad(.actions, v, "expected text (names separated by commas)") }
            return CountdownAnnotations.decodeActions(s)
        }
        let id = try text(.id)
        let stateText = try text(.state)
        let kindText = try text(.kind)
        guard let state = State(rawValue: stateText) else { throw bad(.state, column(.state), "expected running, paused or finished") }
        guard let kind = Kind(rawValue: kindText) else { throw bad(.kind, column(.kind), "expected duration or wall") }
        self.init(
            id: id, state: state, kind: kind,
            wallDeadline: try integer(.wallDeadline), pausedRemaining: try optionalInteger(.pausedRemaining),
            every: try integer(.every), total: try integer(.total),
            bootID: try optionalText(.bootID), bootDeadline: try optionalInteger(.bootDeadline),
            updatedAt: try integer(.updatedAt), overtime: try overtimeFlag(),
            title: try optionalText(.title), actions: try actionNames())
        do {
            try CountdownRange.check(self)
        } catch {
            throw unreadable("column \(error)")
        }
    }

    /// The row's values, in `Column` order (`upsertSQL`).
    var arguments: [SQLiteValue] {
        [.text(id), .text(state.rawValue), .text(kind.rawValue), .integer(wallDeadline), SQLiteValue(pausedRemaining), .integer(every), .integer(total),
         SQLiteValue(bootID), SQLiteValue(bootDeadline), .integer(updatedAt), SQLiteValue(overtime), SQLiteValue(title), .text(CountdownAnnotations.encodeActions(actions))]
    }

    /// Writes a row from `arguments`, replacing the one under its id.
    static let upsertSQL = "INSERT OR REPLACE INTO countdown (" + columns.joined(separator: ", ") + ") VALUES ("
        + columns.map { _ in "?" }.joined(separator: ", ") + ")"
}
