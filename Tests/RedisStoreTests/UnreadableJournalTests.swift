import CountdownCore
import Foundation
import GRDB
import RedisTestServer
@testable import RedisStore
import Testing

private let s: Int64 = 1_000_000_000

/// A journal that cannot be read holds changes no server has: it is renamed
/// aside, never deleted, and reported with what it may hold; a new journal
/// starts at its name. The journal is private to its user, as the store is.
@Suite("An outage journal that cannot be read is kept aside and reported, never dropped", .serialized)
struct UnreadableJournalTests: RedisSuite {
    let server: RedisServer
    let folder: String

    init() throws {
        server = try RedisServer()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-unreadable-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    var path: String { folder + "/" + PendingJournal.fileName }

    /// The files set aside (without their -wal and -shm).
    func aside() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder)
            .filter { $0.hasPrefix(PendingJournal.fileName + ".unreadable-") && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }
    }

    /// A store as a new process opens it, that counts only itself as running.
    func journaledStore(notice: @escaping (String) -> Void) throws -> RedisCountdownStore {
        let store = RedisCountdownStore(url: try RedisURL(server.url), journal: PendingJournal(directory: folder))
        store.notice = notice
        store.journalOwner = "new"
        store.journalOwnerIsRunning = { $0 == "new" }
        return store
    }

    /// A journal of `rows` changes (one per row) left by a process that ended,
    /// closed, with its write-ahead log folded into the file.
    func writeJournal(rows: Int) throws {
        do {
            let journal = PendingJournal(directory: folder)
            try journal.batch {
                for i in 0..<rows {
                    let change = PendingChange(id: "q\(i)", before: nil, after: record("q\(i)", seconds: 100), instant: 0, unconditional: true)
                    _ = try journal.insert(change, server: "127.0.0.1:\(server.port)/0", owner: "gone", writer: "w")
                }
            }
        }
        let db = try DatabaseQueue(path: path)
        try db.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        try db.close()
    }

    @Test("a journal of 6,000 queued changes cut to half its size: renamed aside unchanged, reported with the changes it may hold, and a new journal takes the next change")
    func truncatedJournal() throws {
        try writeJournal(rows: 6_000)
        let size = try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(truncate(path, off_t(size / 2)) == 0)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        var notices: [String] = []
        let store = try journaledStore { notices.append($0) }
        try store.connect()
        let report = try #require(notices.first { $0.contains("cannot be read") }, "\(notices)")
        #expect(report.contains("it may hold") && report.contains("change"), "\(report)")
        // Half the file: the rows before the cut are counted, none after it.
        let counted = try #require(report.firstMatch(of: /it may hold at least (\d+) changes/).flatMap { Int($0.1) }, "\(report)")
        #expect(counted >= 1_000 && counted < 6_000, "\(report)")
        let kept = try aside()
        #expect(kept.count == 1, "\(kept)")
        #expect(store.journalsSetAside == kept.map { folder + "/" + $0 })
        #expect(report.contains(folder + "/" + (kept.first ?? "?")), "\(report)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + (kept.first ?? "?"))) == bytes, "kept as it was")
        print("truncated journal of 6,000 changes: \(report)")
        // A new journal at the usual name keeps the next outage's changes.
        try store.save(record("n", seconds: 100))
        server.stop()
        try store.modify(id: "n") { $0?.total += s }
        #expect(store.pendingLocation == path, "\(notices)")
        let rows = try DatabaseQueue(path: path).read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM pending") }
        #expect(rows == 1)
        #expect(!notices.contains { $0.contains("kept in memory only") }, "\(notices)")
    }

    @Test("a file that is not an SQLite database at the journal's name: kept aside byte for byte, 'an unknown number of changes', and the store goes on")
    func notADatabase() throws {
        let bytes = Data(String(repeating: "not a journal\n", count: 300).utf8)
        try bytes.write(to: URL(fileURLWithPath: path))
        var notices: [String] = []
        let store = try journaledStore { notices.append($0) }
        try store.connect()
        #expect(notices.contains { $0.contains("cannot be read (it is not an SQLite database (4200 bytes))") && $0.contains("an unknown number of changes") }, "\(notices)")
        let kept = try aside()
        #expect(kept.count == 1, "\(kept)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + (kept.first ?? "?"))) == bytes)
        #expect(!FileManager.default.fileExists(atPath: path), "nothing queued yet: no new journal")
        try store.save(record("k", seconds: 100))
        #expect(try self.store().load(id: "k")?.total == 100 * s)
    }

    @Test("the journal, its -wal and its -shm are created with mode 0600")
    func privateFiles() throws {
        let store = try journaledStore { _ in }
        try store.connect()
        try store.save(record("p", seconds: 100))
        server.stop()
        try store.modify(id: "p") { $0?.total += s }
        for name in [path, path + "-wal", path + "-shm"] {
            var info = stat()
            #expect(lstat(name, &info) == 0, "\(name) exists while the journal is open")
            #expect(info.st_mode & 0o777 == 0o600, "\(name): \(String(info.st_mode & 0o777, radix: 8))")
        }
    }
}
