import CountdownCore
import SQLiteAccess
import SQLiteStore
import EventLoop
import Foundation
import GRDB
import Testing

@Suite("The SQLite store's change log: a change costs a follower what changed, not what the store holds", .serialized)
struct ChangeLogTests {
    @Test("one change elsewhere costs a follower of 5,000 countdowns one change-log entry and no countdown row")
    func oneChangeReadsOneEntry() throws {
        let dir = temporaryDirectory()
        let mine = SQLiteCountdownStore(directory: dir)
        try mine.saveAll(many(5_000))
        let watcher = try SQLiteChangeWatcher(store: mine, recheck: try LoopTimer())
        let other = SQLiteCountdownStore(directory: dir)
        let before = mine.rowsRead
        try other.modify(id: "s17") { $0?.total += 1 }
        #expect(firstChange(watcher) == .ids(["s17"]))
        #expect(mine.rowsRead - before <= 2, "rows read: \(mine.rowsRead - before)")
    }

    @Test("changes made elsewhere are named together, deletions included, and this store's own are left out")
    func severalChanges() throws {
        let dir = temporaryDirectory()
        let mine = SQLiteCountdownStore(directory: dir)
        try mine.saveAll(many(10))
        let watcher = try SQLiteChangeWatcher(store: mine, recheck: try LoopTimer())
        try mine.save(record("mine"))
        let other = SQLiteCountdownStore(directory: dir)
        try other.saveAll([record("new"), record("s1")])
        #expect(try other.delete(id: "s2"))
        var seen = CountdownChanges.none
        let deadline = Date().addingTimeInterval(3)
        while seen != .ids(["new", "s1", "s2"]) && Date() < deadline { seen = seen.merged(with: firstChange(watcher, within: 0.5)) }
        #expect(seen == .ids(["new", "s1", "s2"]))
    }

    @Test("a follower more than the log's window behind is told to re-read what it holds")
    func fellBehind() throws {
        let dir = temporaryDirectory()
        let mine = SQLiteCountdownStore(directory: dir)
        try mine.save(record("a"))
        let watcher = try SQLiteChangeWatcher(store: mine, recheck: try LoopTimer())
        let other = SQLiteCountdownStore(directory: dir)
        try other.saveAll(many(Int(ChangeLog.window) + 1))
        #expect(firstChange(watcher) == .unknown)
        try other.modify(id: "a") { $0?.total += 1 }
        #expect(firstChange(watcher) == .ids(["a"]), "and follows the log again after")
    }

    @Test("the log keeps its last entries only")
    func logIsBounded() throws {
        let dir = temporaryDirectory()
        let store = SQLiteCountdownStore(directory: dir)
        try store.saveAll(many(Int(ChangeLog.window) + 500))
        try store.save(record("x"))
        let count = try store.open().value("SELECT count(*) FROM countdown_change")?.integer
        #expect(count == ChangeLog.window)
    }

    @Test("saveAll stores every record in one transaction, or none")
    func saveAllIsAllOrNothing() throws {
        let store = SQLiteCountdownStore(directory: temporaryDirectory())
        try store.saveAll(many(3))
        var bad = record("bad")
        bad.total = -1
        #expect(throws: StoreError.self) { try store.saveAll([record("ok"), bad]) }
        #expect(try store.list().map(\.id) == ["s0", "s1", "s2"])
        #expect(try store.loadEach(ids: ["s1", "nope"]).map { try $0.record.get()?.id } == ["s1", nil])
    }
}

@Suite("The store's integrity is checked where it pays, not on every open", .serialized)
struct IntegrityCheckTests {
    @Test("opening a current store reads no row and checks nothing; a change reads one row")
    func noCheckAtOpen() throws {
        let dir = temporaryDirectory()
        try SQLiteCountdownStore(directory: dir).saveAll(many(2_000))
        let store = SQLiteCountdownStore(directory: dir)
        try store.modify(id: "s5") { $0?.total += 1 }
        #expect(store.integrityChecks == 0)
        #expect(store.rowsRead == 1)
    }

    @Test("a store of the previous schema is checked once, then migrated, and its countdowns kept")
    func checkedBeforeMigration() throws {
        let dir = temporaryDirectory()
        try writeSchemaV1Store(in: dir, holding: [record("old")])
        let old = SQLiteCountdownStore(directory: dir)
        #expect(try old.load(id: "old") == record("old"))
        #expect(old.integrityChecks == 1)
        try old.save(record("new"))
        let reopened = SQLiteCountdownStore(directory: dir)
        #expect(try reopened.list().map(\.id) == ["new", "old"])
        #expect(reopened.integrityChecks == 0)
        let version = try reopened.open().value("PRAGMA user_version")?.integer.map(Int.init)
        #expect(version == SQLiteCountdownStore.schemaVersion)
    }
}
