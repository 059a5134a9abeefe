import CountdownCore
import SQLiteAccess
import SQLiteStore
import Foundation
import GRDB
import Testing

private let s = Time.nanosecondsPerSecond

/// Issue 37: an overtime countdown is kept in the store (StoreConformanceTests),
/// also by a store made before overtime was.
@Suite("The SQLite store keeps overtime countdowns")
struct OvertimeStoreTests {
    @Test("a row written before migration v4 reads as not overtime, and the column is added with its default")
    func olderRowsAreNotOvertime() throws {
        let dir = temporaryDirectory()
        try writeSchemaV1Store(in: dir, holding: [record("old")])
        let store = SQLiteCountdownStore(directory: dir)
        #expect(try store.load(id: "old") == record("old"))
        let db = try store.open()
        let version = try db.value("PRAGMA user_version")?.integer.map(Int.init)
        let flag = try db.value("SELECT overtime FROM countdown WHERE id = 'old'")?.integer
        #expect(version == SQLiteCountdownStore.schemaVersion)
        #expect(flag == 0)
    }
}
