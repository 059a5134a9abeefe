import CountdownCore
import SQLiteAccess
@testable import SQLiteStore
import Foundation
import GRDB
import Testing

/// A store of `count` countdowns whose every page is in the main file (no WAL).
func checkpointedStore(_ count: Int, in dir: String = temporaryDirectory()) throws -> SQLiteCountdownStore {
    let store = SQLiteCountdownStore(directory: dir)
    try store.saveAll((0..<count).map { record("c\($0)") })
    try store.open().execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return store
}

/// Overwrites the page in the middle of the file with bytes no page has.
func damageMiddlePage(of path: String) throws {
    let size = try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    let pages = size / 4096
    #expect(pages >= 8, "a file of \(pages) pages has no middle to damage")
    let handle = try #require(FileHandle(forWritingAtPath: path))
    defer { try? handle.close() }
    try handle.seek(toOffset: UInt64(pages / 2 * 4096))
    try handle.write(contentsOf: Data(repeating: 0x55, count: 4096))
}

/// A copy of `path`'s folder's store in a new folder.
func copyOfStore(_ store: SQLiteCountdownStore) throws -> String {
    let dir = temporaryDirectory()
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: store.path, toPath: StateDirectory.storePath(in: dir))
    return dir
}

@Suite("cdscript check on the SQLite store: damage found, named, and nothing changed", .serialized)
struct StoreCheckTests {
    @Test("a whole store of 2,000 countdowns checks ok, every row counted, without a registration or a byte changed")
    func wholeStore() throws {
        let store = try checkpointedStore(2_000)
        let before = contents(store.path)
        let checker = SQLiteCountdownStore(directory: store.directory)
        let report = try checker.check()
        #expect(report.problems == [])
        #expect(report.countdowns == 2_000)
        #expect(report.isWhole)
        #expect(contents(store.path) == before)
        #expect(!checker.hasOpened, "the check opened the store the ordinary way")
        #expect(try checker.check(full: true).isWhole)
    }

    @Test("a missing store is whole and is not created; neither is its folder")
    func missingStore() throws {
        let dir = temporaryDirectory()
        let report = try SQLiteCountdownStore(directory: dir).check()
        #expect(report.isWhole && report.countdowns == 0)
        #expect(!FileManager.default.fileExists(atPath: dir))
    }

    @Test("a page overwritten in the middle of a copy is reported as damage, and the copy is left byte for byte")
    func damagedPage() throws {
        let store = try checkpointedStore(3_000)
        let dir = try copyOfStore(store)
        let path = StateDirectory.storePath(in: dir)
        try damageMiddlePage(of: path)
        let before = contents(path)
        for full in [false, true] {
            let report = try SQLiteCountdownStore(directory: dir).check(full: full)
            #expect(!report.isWhole)
            #expect(report.problems.contains { $0.subject == "file" }, "\(report.problems)")
        }
        #expect(contents(path) == before)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal") || contents(path + "-wal")?.isEmpty == true)
    }

    @Test("a file that is not a database is damage, not an error")
    func notADatabase() throws {
        let dir = temporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try Data(repeating: 0x42, count: 10_000).write(to: URL(fileURLWithPath: StateDirectory.storePath(in: dir)))
        let report = try SQLiteCountdownStore(directory: dir).check()
        #expect(report.problems.map(\.subject) == ["file"])
        #expect(report.problems.first?.problem.contains("not an SQLite database") == true)
    }

    @Test("a row written by another program that does not decode is named by its id; the others are counted")
    func undecodableRow() throws {
        let store = try checkpointedStore(10)
        try store.open().execute("""
            UPDATE countdown SET total = -5 WHERE id = 'c3';
            UPDATE countdown SET state = 'paused', paused_remaining = NULL WHERE id = 'c4';
            INSERT INTO countdown (id, state, kind, wall_deadline, every, total, updated_at) VALUES (x'00ff', 'running', 'duration', 1, 1000000000, 1, 1);
            """)
        let report = try SQLiteCountdownStore(directory: store.directory).check()
        #expect(report.countdowns == 11)
        #expect(report.problems.count == 3, "\(report.problems)")
        let c3 = try #require(report.problems.first { $0.id == "c3" })
        #expect(c3.subject == "countdown 'c3'")
        #expect(c3.problem.contains("total = -5"))
        #expect(c3.problem.contains("cdscript cancel 'c3'"))
        #expect(report.problems.contains { $0.id == "c4" && $0.problem.contains("paused_remaining") })
        #expect(report.problems.contains { $0.id == nil && $0.problem.contains("expected text") })
    }

    @Test("a change-log trigger dropped by hand is a schema problem: followers would miss changes")
    func droppedTrigger() throws {
        let store = try checkpointedStore(3)
        try store.open().execute("DROP TRIGGER countdown_updated")
        let report = try SQLiteCountdownStore(directory: store.directory).check()
        #expect(report.problems.map(\.subject) == ["schema"])
        #expect(report.problems.first?.problem.contains("trigger countdown_updated is missing") == true)
    }

    @Test("a store of the first schema (as written by hand in the tests) is whole; it is not migrated by the check")
    func olderSchema() throws {
        let dir = temporaryDirectory()
        try writeSchemaV1Store(in: dir, holding: [record("old")])
        let before = contents(StateDirectory.storePath(in: dir))
        let report = try SQLiteCountdownStore(directory: dir).check()
        #expect(report.problems == [])
        #expect(report.countdowns == 1)
        #expect(contents(StateDirectory.storePath(in: dir)) == before)
    }

    @Test("a store of a newer schema cannot be checked: an error, not damage")
    func newerSchema() throws {
        let store = try checkpointedStore(1)
        try store.open().execute("PRAGMA user_version = 99")
        #expect { try SQLiteCountdownStore(directory: store.directory).check() } throws: { ($0 as? StoreError)?.kind == .newerSchema }
    }

    @Test("end claims: a done claim still held is a problem; one whose countdown is gone is only a note")
    func endClaims() throws {
        let store = try checkpointedStore(2)
        try store.open().execute("""
            INSERT INTO end_claim (id, end_at, claimed_by, done) VALUES ('c0', 5, 'someone', 1);
            INSERT INTO end_claim (id, end_at, done) VALUES ('gone', 5, 1);
            INSERT INTO end_claim (id, end_at, token) VALUES ('c1', 5, -3);
            """)
        let report = try SQLiteCountdownStore(directory: store.directory).check()
        #expect(report.problems.map(\.subject).sorted() == ["end claim 'c0'", "end claim 'c1'"])
        #expect(report.notes.contains { $0.hasPrefix("1 end claim is kept") })
    }
}
