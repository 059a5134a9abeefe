import CountdownCore
import EventLoop
import Foundation
import GRDB
import SQLiteAccess
import SQLiteStore
import Testing

/// A store of `count` countdowns s0, s1, ... written by another process's store.
private func storeOf(_ count: Int) throws -> String {
    let dir = temporaryDirectory()
    try SQLiteCountdownStore(directory: dir).saveAll(many(count))
    return dir
}

@Suite("The SQLite store reads a long run of loads ahead, in one transaction", .serialized)
struct ReadAheadTests {
    @Test("5,000 loads in a run, while changes are followed, take at most an eighth as many read transactions and give each record as stored")
    func runOfLoads() throws {
        let dir = try storeOf(5_000)
        let mine = SQLiteCountdownStore(directory: dir)
        let watcher = try SQLiteChangeWatcher(store: mine, recheck: try LoopTimer())
        let loaded = try ids(5_000).map { try mine.load(id: $0) }
        let asStored = loaded == ids(5_000).map { record($0) }
        #expect(asStored)
        #expect(try mine.load(id: "missing") == nil)
        #expect(mine.readTransactions <= 5_000 / 8 + 2, "read transactions: \(mine.readTransactions)")
        withExtendedLifetime(watcher) {}
    }

    @Test("after a process loads all 3,000 one by one (read ahead), the first change it sees lets go of no copy: the copy went with the last load")
    func firstChangeAfterLoadingAll() throws {
        let dir = try storeOf(3_000)
        let mine = SQLiteCountdownStore(directory: dir)
        let watcher = try SQLiteChangeWatcher(store: mine, recheck: try LoopTimer())
        for id in ids(3_000) { #expect(try mine.load(id: id)?.id == id) }
        #expect(mine.readTransactions <= 3_000 / 8 + 2, "read ahead: \(mine.readTransactions) read transactions")
        let other = SQLiteCountdownStore(directory: dir)
        try other.modify(id: "s9") { $0?.total += 1 }
        #expect(firstChange(watcher) == .ids(["s9"]))
        #expect(mine.readAheadDroppedAtLook == 0, "\(mine.readAheadDroppedAtLook) entries let go at the first change")

        // Loads that stop half way leave a copy, which the next look lets go: the counter tells.
        for id in ids(1_500) { _ = try mine.load(id: id) }
        try other.modify(id: "s8") { $0?.total += 1 }
        #expect(firstChange(watcher) == .ids(["s8"]))
        #expect(mine.readAheadDroppedAtLook == 3_000)
    }

    @Test("without following the store's changes, nothing is read ahead: each load reads the database")
    func noReadAheadWithoutFollowing() throws {
        let dir = try storeOf(1_000)
        let mine = SQLiteCountdownStore(directory: dir)
        for id in ids(1_000) { _ = try mine.load(id: id) }
        #expect(mine.readTransactions == 1_000)
        #expect(mine.rowsRead == 1_000)
    }

    @Test("a change made elsewhere after the read-ahead is named by the change log, and loads after it read what is stored")
    func changeElsewhere() throws {
        let dir = try storeOf(1_000)
        let mine = SQLiteCountdownStore(directory: dir)
        let watcher = try SQLiteChangeWatcher(store: mine, recheck: try LoopTimer())
        for id in ids(600) { _ = try mine.load(id: id) }
        let before = mine.readTransactions
        #expect(try mine.load(id: "s700")?.total == record("s700").total)
        #expect(mine.readTransactions == before, "answered from the copy read ahead")

        let other = SQLiteCountdownStore(directory: dir)
        try other.modify(id: "s700") { $0?.total += 1 }
        #expect(try other.delete(id: "s701"))
        try other.save(record("fresh"))
        var seen = CountdownChanges.none
        let deadline = Date().addingTimeInterval(5)
        while seen != .ids(["s700", "s701", "fresh"]) && Date() < deadline { seen = seen.merged(with: firstChange(watcher, within: 0.5)) }
        #expect(seen == .ids(["s700", "s701", "fresh"]))
        #expect(try mine.load(id: "s700")?.total == record("s700").total + 1)
        #expect(try mine.load(id: "s701") == nil)
        #expect(try mine.load(id: "fresh") == record("fresh"))
    }

    @Test("a record is handed out from the copy once: loading the same id again reads the database")
    func secondLoadReadsTheDatabase() throws {
        let dir = try storeOf(1_000)
        let mine = SQLiteCountdownStore(directory: dir)
        let watcher = try SQLiteChangeWatcher(store: mine, recheck: try LoopTimer())
        for id in ids(600) { _ = try mine.load(id: id) }
        let before = mine.readTransactions
        #expect(try mine.load(id: "s800") == record("s800"))
        #expect(mine.readTransactions == before)
        #expect(try mine.load(id: "s800") == record("s800"))
        #expect(mine.readTransactions == before + 1)
        withExtendedLifetime(watcher) {}
    }

    @Test("this process's own writes are seen by its next load at once")
    func ownWrites() throws {
        let dir = try storeOf(1_000)
        let mine = SQLiteCountdownStore(directory: dir)
        let watcher = try SQLiteChangeWatcher(store: mine, recheck: try LoopTimer())
        for id in ids(600) { _ = try mine.load(id: id) }
        try mine.modify(id: "s3") { $0?.total += 1 }
        #expect(try mine.load(id: "s3")?.total == record("s3").total + 1)
        #expect(try mine.delete(id: "s4"))
        #expect(try mine.load(id: "s4") == nil)
        try mine.save(record("mine"))
        #expect(try mine.load(id: "mine") == record("mine"))
        withExtendedLifetime(watcher) {}
    }

    @Test("a row that cannot be read fails its load with the same message from the read-ahead as without it")
    func unreadableRow() throws {
        let dir = try storeOf(1_000)
        try SQLiteCountdownStore(directory: dir).open().execute("UPDATE countdown SET total = -5 WHERE id = 's900'")
        func failure(_ store: SQLiteCountdownStore) -> String? {
            do {
                _ = try store.load(id: "s900")
                return nil
            } catch {
                return "\(error)"
            }
        }
        let expected = failure(SQLiteCountdownStore(directory: dir))
        #expect(expected?.contains("s900") == true)

        let mine = SQLiteCountdownStore(directory: dir)
        let watcher = try SQLiteChangeWatcher(store: mine, recheck: try LoopTimer())
        for id in ids(600) { _ = try mine.load(id: id) }
        let before = mine.readTransactions
        #expect(failure(mine) == expected)
        #expect(mine.readTransactions == before, "answered from the copy read ahead")
        #expect(try mine.load(id: "s899") == record("s899"), "the other rows are read")
        withExtendedLifetime(watcher) {}
    }
}
