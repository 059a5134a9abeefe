import CountdownCore
import SQLiteAccess
import SQLiteStore
import Foundation
import GRDB
import Testing

private let s = Time.nanosecondsPerSecond

/// Issue 49: titles and end-action names kept in the store (StoreConformanceTests),
/// also by a store made before they were.
@Suite("The SQLite store migrates to titles and end actions (schema v6)")
struct AnnotationMigrationTests {
    @Test("a row written before migration v6 reads with no title and no actions; both columns are added, and a new record keeps them")
    func olderRowsHaveNone() throws {
        let dir = temporaryDirectory()
        try writeSchemaV1Store(in: dir, holding: [record("old")])
        let store = SQLiteCountdownStore(directory: dir)
        let old = try #require(try store.load(id: "old"))
        #expect(old == record("old"))
        #expect(old.title == nil && old.actions.isEmpty)
        let db = try store.open()
        let version = try db.value("PRAGMA user_version")?.integer.map(Int.init)
        let title = try db.value("SELECT title FROM countdown WHERE id = 'old'")?.text
        let actions = try db.value("SELECT actions FROM countdown WHERE id = 'old'")?.text
        #expect(version == SQLiteCountdownStore.schemaVersion)
        #expect(title == nil && actions == "")
        var new = record("new")
        new.title = "Tea | 100%"
        new.actions = ["notify", "log"]
        try store.save(new)
        #expect(try SQLiteCountdownStore(directory: dir).load(id: "new") == new)
        let stored = try store.open().value("SELECT actions FROM countdown WHERE id = 'new'")?.text
        #expect(stored == "notify,log")
    }

    @Test("a row whose actions another program wrote outside the limits is named as unreadable; the others stay usable")
    func badActionsAreUnreadable() throws {
        let dir = temporaryDirectory()
        let store = SQLiteCountdownStore(directory: dir)
        try store.save(record("good"))
        try store.open().execute("UPDATE countdown SET actions = 'rm -rf /' WHERE id = 'good'")
        try store.save(record("other"))
        let listing = try store.listing()
        #expect(listing.countdowns.map(\.id) == ["other"])
        #expect(listing.unreadable.map(\.id) == ["good"])
        #expect(listing.unreadable.first?.problem.contains("actions") == true, "\(listing.unreadable)")
    }
}
