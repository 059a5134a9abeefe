import CountdownCore
import Foundation
import SQLiteAccess
@testable import SQLiteStore
import Testing

/// Schema v8 (issue 53) writes the CHECK on `state` as equalities: SQLite tests
/// `state IN ('running', 'paused', 'finished')` through a temporary index built
/// for every row written, a third of what creating a countdown cost.
@Suite("Writing a countdown builds no temporary table, in a new store and in one made before v8")
struct StateCheckMigrationTests {
    /// The opcodes of the statement every countdown row is written with, as this connection would run it.
    static func upsertOpcodes(_ db: SQLiteAccess.SQLiteConnection) throws -> [String] {
        try db.prepare("EXPLAIN " + StoredCountdown.upsertSQL)
            .allRows(record("any").arguments).compactMap { $0[1].text }
    }

    @Test("a new store's row write opens no ephemeral table, in the process that made the store too")
    func newStore() throws {
        let store = SQLiteCountdownStore(directory: temporaryDirectory())
        try store.save(record("a"))
        let opcodes = try Self.upsertOpcodes(try store.open())
        #expect(!opcodes.isEmpty)
        #expect(!opcodes.contains("OpenEphemeral"), "\(opcodes)")
    }

    @Test("a v7 store is migrated: its rows are kept, the schema checks clean, a row write opens no ephemeral table, and a bad state is still refused")
    func migratedStore() throws {
        let dir = temporaryDirectory()
        try writeSchemaV1Store(in: dir, holding: [record("x"), record("y", state: .finished)])
        do {
            let db = try SQLiteAccess.SQLiteConnection(path: StateDirectory.storePath(in: dir))
            defer { db.close() }
            try StoreSchema.migrator.migrate(db, upTo: "v7")
            #expect(try Self.upsertOpcodes(db).contains("OpenEphemeral"), "the v1 table's CHECK, as it was")
        }
        let store = SQLiteCountdownStore(directory: dir)
        #expect(try store.list().map(\.id).sorted() == ["x", "y"])
        let db = try store.open()
        #expect(try db.value("PRAGMA user_version")?.integer == Int64(StoreSchema.version))
        #expect(!(try Self.upsertOpcodes(db)).contains("OpenEphemeral"))
        #expect(try store.check(full: true).problems.isEmpty)
        #expect(throws: (any Error).self) {
            try db.execute("UPDATE countdown SET state = 'gone' WHERE id = 'x'")
        }
        #expect(try store.load(id: "x")?.state == .running)
        // Another connection, opened after the migration, reads the new CHECK too.
        let other = try SQLiteAccess.SQLiteConnection(path: StateDirectory.storePath(in: dir))
        defer { other.close() }
        #expect(!(try Self.upsertOpcodes(other)).contains("OpenEphemeral"))
    }
}
