import CountdownCore
import Foundation
import GRDB
import SQLiteAccess
@testable import SQLiteStore
import Testing

/// Schema v7 (issue 50) adds the claimant's exit status to the end claims.
@Suite("An end claim keeps its action's exit status, also in a store made before it could")
struct EndClaimStatusMigrationTests {
    /// A store of schema v5 holding "x", finished, and its end claimed and done.
    static func schemaV5Store(in dir: String) throws -> EndName {
        try writeSchemaV1Store(in: dir, holding: [record("x", state: .finished)])
        let db = try SQLiteAccess.SQLiteConnection(path: StateDirectory.storePath(in: dir))
        defer { db.close() }
        try StoreSchema.migrator.migrate(db, upTo: "v5")
        let finished = record("x", state: .finished)
        let name = try #require(EndName(finished: finished))
        try db.execute("""
            INSERT INTO end_claim (id, end_at, changed_at, claimed_by, lease_until, lease_boot, token, done)
            VALUES ('x', ?, ?, NULL, 0, NULL, 4, 1)
            """, [.integer(name.deadline), .integer(name.changedAt)])
        return name
    }

    @Test("a v5 store is migrated to v7: its done claim is kept, with no status (claims of it are told .done), and the column is there")
    func migratedClaimHasNoStatus() throws {
        let dir = temporaryDirectory()
        let name = try Self.schemaV5Store(in: dir)
        let store = SQLiteCountdownStore(directory: dir)
        let now = StoreInstant(boot: 1, wall: 1, bootID: "boot")
        #expect(try store.claimEnd(id: "x", expected: name, owner: "A", lease: 10 * Time.nanosecondsPerSecond, now: now) == .done)
        let db = try store.open()
        let version = try db.value("PRAGMA user_version")?.integer.map(Int.init)
        let statuses = try db.prepare("SELECT action_status FROM end_claim").allRows().map { $0[0].integer }
        #expect(version == StoreSchema.version)
        #expect(statuses == [nil])
        #expect(try store.check(full: true).problems.isEmpty)
    }

    @Test("an action_status that is not an exit status is damage, named by the claim and the column")
    func damagedStatus() throws {
        let dir = temporaryDirectory()
        let name = try Self.schemaV5Store(in: dir)
        let store = SQLiteCountdownStore(directory: dir)
        try store.open().execute("UPDATE end_claim SET action_status = 'three'")
        let now = StoreInstant(boot: 1, wall: 1, bootID: "boot")
        // Reported as the store's failure, naming the claim and the column (the claim is never made).
        #expect {
            try store.claimEnd(id: "x", expected: name, owner: "A", lease: 10 * Time.nanosecondsPerSecond, now: now)
        } throws: { error in
            "\(error)".contains("end_claim 'x': column action_status = \"three\"")
        }
        let problems = try store.check(full: true).problems.map(\.problem)
        #expect(problems.contains { $0.contains("action_status") }, "\(problems)")
    }
}
