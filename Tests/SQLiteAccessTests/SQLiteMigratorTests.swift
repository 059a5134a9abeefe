import Foundation
import GRDB
import SQLiteAccess
import Testing

private typealias Connection = SQLiteAccess.SQLiteConnection

private var twoSteps: SQLiteMigrator {
    var migrator = SQLiteMigrator()
    migrator.register("v1", sql: "CREATE TABLE t (x); PRAGMA user_version = 1;")
    migrator.register("v2", sql: "ALTER TABLE t ADD COLUMN y; PRAGMA user_version = 2;")
    return migrator
}

@Suite("Migrations are applied once, in order, recorded where GRDB recorded them")
struct SQLiteMigratorTests {
    @Test("a new database gets every migration, recorded by identifier; migrating again changes nothing")
    func fresh() throws {
        let db = try Connection(path: ":memory:")
        #expect(try !twoSteps.hasCompletedMigrations(db))
        try twoSteps.migrate(db)
        #expect(try db.texts("SELECT identifier FROM grdb_migrations ORDER BY identifier") == ["v1", "v2"])
        #expect(try db.value("PRAGMA user_version") == .integer(2))
        #expect(try twoSteps.hasCompletedMigrations(db))
        let changes = db.totalChanges
        try twoSteps.migrate(db)
        #expect(db.totalChanges == changes)
    }

    @Test("up to a migration: the later ones wait")
    func upTo() throws {
        let db = try Connection(path: ":memory:")
        try twoSteps.migrate(db, upTo: "v1")
        #expect(try twoSteps.appliedMigrations(db) == ["v1"])
        #expect(try !twoSteps.hasCompletedMigrations(db))
        try twoSteps.migrate(db)
        #expect(try twoSteps.appliedMigrations(db) == ["v1", "v2"])
    }

    @Test("a migration that fails leaves none of that run applied")
    func failing() throws {
        var migrator = twoSteps
        migrator.register("v3", sql: "ALTER TABLE nowhere ADD COLUMN z")
        let db = try Connection(path: ":memory:")
        try twoSteps.migrate(db, upTo: "v1")
        #expect(throws: SQLiteError.self) { try migrator.migrate(db) }
        #expect(try migrator.appliedMigrations(db) == ["v1"])
        #expect(try db.value("PRAGMA user_version") == .integer(1))
    }

    @Test("a database migrated by GRDB's migrator with the same migrations is complete, and is left as it is")
    func migratedByGRDB() throws {
        let path = try scratchFolder() + "/db.sqlite"
        var grdb = DatabaseMigrator()
        grdb.registerMigration("v1") { db in try db.execute(sql: "CREATE TABLE t (x); PRAGMA user_version = 1;") }
        try grdb.migrate(try DatabaseQueue(path: path))
        let db = try Connection(path: path)
        #expect(try twoSteps.appliedMigrations(db) == ["v1"])
        try twoSteps.migrate(db)
        #expect(try twoSteps.hasCompletedMigrations(db))
        grdb.registerMigration("v2") { db in try db.execute(sql: "ALTER TABLE t ADD COLUMN y; PRAGMA user_version = 2;") }
        // GRDB reads what was applied here as its own.
        #expect(try DatabaseQueue(path: path).read { try grdb.hasCompletedMigrations($0) })
    }

    @Test("a migration this migrator does not know means a newer program migrated the database")
    func superseded() throws {
        let db = try Connection(path: ":memory:")
        try twoSteps.migrate(db)
        #expect(try !twoSteps.hasBeenSuperseded(db))
        try db.execute("INSERT INTO grdb_migrations VALUES ('v9-future')")
        #expect(try twoSteps.hasBeenSuperseded(db))
        #expect(try twoSteps.appliedIdentifiers(db) == ["v1", "v2", "v9-future"])
    }

    @Test("six connections migrating a new database at once: every one succeeds and each migration runs once")
    func concurrent() async throws {
        let path = try scratchFolder() + "/db.sqlite"
        try Connection(path: path, setUp: "PRAGMA journal_mode = WAL").close()
        let failures = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<6 {
                group.addTask {
                    do {
                        let db = try Connection(path: path, busyTimeout: 30)
                        try twoSteps.migrate(db)
                        return nil
                    } catch {
                        return "\(error)"
                    }
                }
            }
            var failures: [String] = []
            for await failure in group { if let failure { failures.append(failure) } }
            return failures
        }
        #expect(failures == [])
        let db = try Connection(path: path)
        #expect(try db.value("SELECT count(*) FROM grdb_migrations") == .integer(2))
        #expect(try db.value("SELECT count(*) FROM pragma_table_info('t')") == .integer(2))
    }
}
