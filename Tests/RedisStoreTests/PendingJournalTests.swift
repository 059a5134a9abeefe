import CountdownCore
import Foundation
import GRDB
import RedisTestServer
@testable import RedisStore
import Testing

private let s: Int64 = 1_000_000_000

/// Changes queued while the server is out of reach are kept on local disk until
/// the server has them: a process that ends first leaves them for the next one.
@Suite("The queue on disk: changes made during an outage outlive the process that made them", .serialized)
struct PendingJournalTests: RedisSuite {
    let server: RedisServer
    let folder: String

    init() throws {
        server = try RedisServer()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-journal-\(UUID().uuidString)").path
    }

    /// A store as one process would open it, with the journal in `folder`,
    /// owned by `owner` (a stand-in for a process id), where only `running`
    /// owners count as alive.
    func journaledStore(owner: String, running: Set<String>, notice: @escaping (String) -> Void = { _ in }) throws -> RedisCountdownStore {
        let store = RedisCountdownStore(url: try RedisURL(server.url), journal: PendingJournal(directory: folder))
        store.notice = notice
        store.journalOwner = owner
        store.journalOwnerIsRunning = { running.contains($0) }
        try store.connect()
        return store
    }

    func rows() throws -> Int {
        let db = try DatabaseQueue(path: folder + "/" + PendingJournal.fileName)
        return try db.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM pending") ?? 0 }
    }

    @Test("every queued change is on disk at once, merged per countdown like the queue in memory; sent, it leaves the file")
    func writtenThrough() throws {
        let store = try journaledStore(owner: "a", running: ["a"])
        try store.save(record("x", seconds: 100))
        try store.save(record("y", seconds: 100))
        #expect(!FileManager.default.fileExists(atPath: folder + "/" + PendingJournal.fileName), "nothing queued, nothing written")
        server.signal(SIGSTOP)
        defer { server.signal(SIGCONT) }
        store.timeoutMilliseconds = 200
        for _ in 0..<5 { try store.modify(id: "x") { $0?.total += s } }
        try store.modify(id: "y") { $0?.total += 2 * s }
        server.signal(SIGCONT)
        #expect(store.pendingCount == 6)
        // The change whose reply was lost stays apart; the rest merge per countdown.
        #expect(try rows() == store.pendingCountdowns)
        #expect(store.reconnect())
        #expect(store.replayPending(forMilliseconds: 5_000))
        #expect(try rows() == 0)
        let other = try self.store()
        #expect(try other.load(id: "x")?.total == 105 * s)
        #expect(try other.load(id: "y")?.total == 102 * s)
    }

    @Test("a process that ended with changes queued: the next one to reach the server sends them first, once, and a live owner's rows are never taken")
    func adoptedByTheNextProcess() throws {
        let first = try journaledStore(owner: "first", running: ["first", "second"])
        try first.save(record("k", seconds: 100))
        server.stop()
        for _ in 0..<3 { try first.modify(id: "k") { $0?.total += 10 * s } }
        #expect(first.pendingCount == 3)
        try server.start()
        // While its owner runs, another process leaves the rows alone.
        let bystander = try journaledStore(owner: "second", running: ["first", "second"])
        #expect(try bystander.load(id: "k")?.total == 100 * s)
        #expect(try rows() > 0)
        // The owner is gone (killed before the server came back): the next process adopts.
        var notices: [String] = []
        let next = RedisCountdownStore(url: try RedisURL(server.url), journal: PendingJournal(directory: folder))
        next.journalOwner = "third"
        next.journalOwnerIsRunning = { $0 == "third" }
        next.notice = { notices.append($0) }
        try next.connect()
        #expect(try rows() == 0)
        #expect(try next.load(id: "k")?.total == 130 * s)
        #expect(notices.contains { $0.contains("sent 3 changes an earlier run kept in") }, "\(notices)")
        // A fourth process finds nothing left to send: each change was sent once.
        let fourth = RedisCountdownStore(url: try RedisURL(server.url), journal: PendingJournal(directory: folder))
        fourth.journalOwner = "fourth"
        fourth.journalOwnerIsRunning = { _ in false }
        try fourth.connect()
        #expect(try fourth.load(id: "k")?.total == 130 * s)
    }

    @Test("a journal that cannot be written (a symlink at its name) is said once, and the queue lives on in memory")
    func unwritableJournal() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let target = folder + "/elsewhere"
        FileManager.default.createFile(atPath: target, contents: Data("keep".utf8))
        try FileManager.default.createSymbolicLink(atPath: folder + "/" + PendingJournal.fileName, withDestinationPath: target)
        var notices: [String] = []
        let store = try journaledStore(owner: "a", running: ["a"]) { notices.append($0) }
        try store.save(record("z", seconds: 100))
        server.stop()
        try store.modify(id: "z") { $0?.total += s }
        try store.modify(id: "z") { $0?.total += s }
        #expect(notices.filter { $0.contains("kept in memory only") }.count == 1, "\(notices)")
        #expect(store.pendingLocation == "this process's memory", "\(notices)")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep", "the symlink's target is untouched")
        try server.start()
        #expect(store.flush(withinMilliseconds: 5_000))
        #expect(try self.store().load(id: "z")?.total == 102 * s)
    }

    @Test("1,200 countdowns saved at once during an outage (three slices, each queued in one transaction): a row on disk for each, all sent when the server is back")
    func offlineSaveAllOneRowEach() throws {
        let store = try journaledStore(owner: "a", running: ["a"])
        server.stop()
        // One save finds the server gone, so each slice below is queued offline, its rows written together.
        try store.save(record("first", seconds: 1000))
        #expect(try rows() == 1)
        let count = 1_200
        try store.saveAll((0..<count).map { record("b\($0)", seconds: 1000) })
        #expect(store.pendingCountdowns == count + 1)
        #expect(try rows() == count + 1, "every queued change is on disk, not only in memory")
        try server.start()
        #expect(store.flush(withinMilliseconds: 60_000))
        #expect(try rows() == 0)
        let other = try self.store()
        #expect(try other.listing().countdowns.count == count + 1)
    }

    @Test("changes queued together, then a throw: the ones queued before it stay queued, in memory and on disk, and the error goes on")
    func throwInsideABatchKeepsWhatWasQueued() throws {
        struct Stop: Error {}
        var notices: [String] = []
        let store = try journaledStore(owner: "a", running: ["a"]) { notices.append($0) }
        server.stop()
        let queued = 7
        #expect(throws: Stop.self) {
            try store.queueingTogether {
                for i in 0..<queued { try store.save(record("t\(i)", seconds: 1000)) }
                throw Stop()
            }
        }
        #expect(store.pendingCountdowns == queued)
        #expect(try rows() == queued, "the rows written before the throw were committed")
        #expect(!notices.contains { $0.contains("kept in memory only") }, "the body's error is not the journal's: \(notices)")
        #expect(store.pendingLocation == folder + "/" + PendingJournal.fileName)
        try server.start()
        #expect(store.flush(withinMilliseconds: 10_000))
        #expect(try rows() == 0)
        #expect(try self.store().listing().countdowns.count == queued)
    }

    @Test("a journal batch whose body throws after 5 inserts: the 5 rows are committed, and the error goes on")
    func journalBatchCommitsBeforeAThrow() throws {
        struct Stop: Error {}
        let journal = PendingJournal(directory: folder)
        let inserted = 5
        #expect(throws: Stop.self) {
            try journal.batch {
                for i in 0..<inserted {
                    let change = PendingChange(id: "j\(i)", before: nil, after: record("j\(i)", seconds: 100), instant: 0, unconditional: true)
                    _ = try journal.insert(change, server: "s", owner: "a", writer: "w")
                }
                throw Stop()
            }
        }
        #expect(try rows() == inserted)
    }

    @Test("a journal that cannot be opened for changes queued together: said once, the changes run once and are kept in memory")
    func batchWithAnUnwritableJournal() throws {
        var notices: [String] = []
        let store = try journaledStore(owner: "a", running: ["a"]) { notices.append($0) }
        // Placed after connecting: a symlink there at the start is found (and the journal
        // left) by the adoption of orphaned rows, before any batch opens it.
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder + "/" + PendingJournal.fileName, withDestinationPath: folder + "/elsewhere")
        #expect(store.pendingLocation == folder + "/" + PendingJournal.fileName, "\(notices)")
        server.stop()
        var runs = 0
        try store.queueingTogether {
            runs += 1
            for i in 0..<3 { try store.save(record("m\(i)", seconds: 1000)) }
        }
        #expect(runs == 1)
        #expect(store.pendingCountdowns == 3)
        #expect(notices.filter { $0.contains("kept in memory only") }.count == 1, "\(notices)")
        #expect(store.pendingLocation == "this process's memory")
        try server.start()
        #expect(store.flush(withinMilliseconds: 10_000))
        #expect(try self.store().listing().countdowns.count == 3)
    }

    @Test("200,000 changes to 100 countdowns during an outage: 100 rows on disk, every append counted once when sent")
    func manyChangesFewRows() throws {
        let store = try journaledStore(owner: "a", running: ["a"])
        for i in 0..<100 { try store.save(record("c\(i)", seconds: 1000)) }
        server.stop()
        let started = Date()
        for i in 0..<200_000 { try store.modify(id: "c\(i % 100)") { $0?.total += s } }
        let queueing = Date().timeIntervalSince(started)
        #expect(try rows() == 100, "rows follow countdowns, not changes")
        try server.start()
        #expect(store.flush(withinMilliseconds: 60_000))
        #expect(try rows() == 0)
        let other = try self.store()
        for i in 0..<100 { #expect(try other.load(id: "c\(i)")?.total == 3000 * s) }
        print("journal: 200,000 changes to 100 countdowns queued (written through) in \(String(format: "%.2f", queueing)) s")
    }
}
