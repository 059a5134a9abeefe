import CSQLite

/// Schema migrations, each applied once, in the order registered, and recorded
/// by identifier in the table `grdb_migrations` (the name and layout GRDB gave it:
/// stores that earlier builds migrated through GRDB open unchanged).
///
/// All that is missing is applied in one IMMEDIATE transaction that first reads
/// what is applied: of several processes migrating the same database at once,
/// the first applies everything and the others find nothing left to do.
public struct SQLiteMigrator: Sendable {
    /// The table the applied identifiers are recorded in.
    public static let tableName = "grdb_migrations"

    public struct Migration: Sendable {
        public let identifier: String
        /// One or more statements, run as they are.
        public let sql: String
    }

    public private(set) var migrations: [Migration] = []

    public init() {}

    /// Adds a migration after those registered so far.
    public mutating func register(_ identifier: String, sql: String) {
        precondition(!migrations.contains { $0.identifier == identifier }, "migration \(identifier) registered twice")
        migrations.append(Migration(identifier: identifier, sql: sql))
    }

    public var identifiers: [String] { migrations.map(\.identifier) }

    /// Every identifier recorded, known to this migrator or not; none when there is no table.
    public func appliedIdentifiers(_ db: SQLiteConnection) throws -> Set<String> {
        guard try db.tableExists(Self.tableName) else { return [] }
        return Set(try db.texts("SELECT identifier FROM \(Self.tableName)"))
    }

    /// The registered migrations that are applied, in registration order.
    public func appliedMigrations(_ db: SQLiteConnection) throws -> [String] {
        let applied = try appliedIdentifiers(db)
        return identifiers.filter(applied.contains)
    }

    /// True when every registered migration, and only those, have been applied in order.
    public func hasCompletedMigrations(_ db: SQLiteConnection) throws -> Bool {
        let applied = try appliedMigrations(db)
        let completed = zip(applied, identifiers).prefix { $0 == $1 }.count
        return completed == identifiers.count
    }

    /// True when the database records a migration this migrator does not know:
    /// a newer program migrated it.
    public func hasBeenSuperseded(_ db: SQLiteConnection) throws -> Bool {
        let known = Set(identifiers)
        return try appliedIdentifiers(db).contains { !known.contains($0) }
    }

    /// Applies every registered migration up to `target` (all when nil) that is
    /// not applied yet, in one IMMEDIATE transaction (nothing when nothing is missing).
    public func migrate(_ db: SQLiteConnection, upTo target: String? = nil) throws {
        let wanted: [Migration]
        if let target {
            guard let last = migrations.firstIndex(where: { $0.identifier == target }) else {
                throw SQLiteError(code: SQLITE_MISUSE, message: "no migration \(target)")
            }
            wanted = Array(migrations[...last])
        } else {
            wanted = migrations
        }
        // Read without a lock first: an up-to-date database is left alone.
        let before = try appliedIdentifiers(db)
        if wanted.allSatisfy({ before.contains($0.identifier) }) { return }
        try db.transaction(.immediate) {
            try db.execute("CREATE TABLE IF NOT EXISTS \(Self.tableName) (identifier TEXT NOT NULL PRIMARY KEY)")
            // Read again under the write lock: another process may have migrated meanwhile.
            let applied = try appliedIdentifiers(db)
            for migration in wanted where !applied.contains(migration.identifier) {
                try db.execute(migration.sql)
                try db.execute("INSERT INTO \(Self.tableName) (identifier) VALUES (?)", [.text(migration.identifier)])
            }
        }
        // A migration may edit a table's SQL in sqlite_master (SQLite's way to
        // change a CHECK): this connection parsed the schema before, and reads
        // it again only when told to.
        try db.execute("PRAGMA writable_schema = RESET")
    }
}

extension SQLiteConnection {
    /// True when the database has a table named `name`.
    public func tableExists(_ name: String) throws(SQLiteError) -> Bool {
        try value("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(name)]) != nil
    }
}
