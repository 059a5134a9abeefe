import Foundation
import RedisTestServer
import Testing

extension RedisStoreFaults {
    /// `cdscript list` finding an outage journal it cannot read: the file is kept
    /// aside, said with what it may hold, and the command exits 6.
    @Suite("An unreadable outage journal, end to end", .serialized)
    final class RedisUnreadableJournalTests {
        let server: RedisServer
        let stateDir = Scratch.directory("unreadable-journal")

        init() throws { server = try RedisServer() }

        @Test("list with a damaged redis-pending.sqlite: exit 6, the file kept aside and reported; the next list starts a new journal and exits 0")
        func listExitsSix() throws {
            let path = stateDir + "/redis-pending.sqlite"
            // An SQLite header, then garbage: a journal damaged past its first bytes.
            var bytes = Data("SQLite format 3\0".utf8)
            bytes.append(Data(repeating: 0x5A, count: 8192 - bytes.count))
            try bytes.write(to: URL(fileURLWithPath: path))
            let first = try LiveProcess.run(["list", "--store", server.url, "--state-dir", stateDir])
            #expect(first.status == 6, "\(first.stderr)")
            #expect(first.stderr.contains("\(path) cannot be read"), "\(first.stderr)")
            #expect(first.stderr.contains("it may hold"), "\(first.stderr)")
            let kept = try FileManager.default.contentsOfDirectory(atPath: stateDir).filter { $0.hasPrefix("redis-pending.sqlite.unreadable-") && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }
            #expect(kept.count == 1, "\(kept)")
            #expect(first.stderr.contains(stateDir + "/" + (kept.first ?? "?")), "\(first.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: stateDir + "/" + (kept.first ?? "?"))) == bytes, "kept as it was")
            let second = try LiveProcess.run(["list", "--store", server.url, "--state-dir", stateDir])
            #expect(second.status == 0, "\(second.stderr)")
            #expect(FileManager.default.fileExists(atPath: stateDir + "/" + (kept.first ?? "?")), "never deleted")
        }
    }
}
