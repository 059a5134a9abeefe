import CountdownCore
import SQLiteStore
import Foundation
import GRDB
import Testing

/// `glance()`: the whole store read the cheapest way, for `cdscript status`, which
/// a status bar runs every second.
@Suite("A glance at the store")
struct GlanceTests {
    /// A store holding `count` countdowns, written and closed by another store object.
    private func filled(_ count: Int) throws -> String {
        let dir = temporaryDirectory()
        let writer = SQLiteCountdownStore(directory: dir)
        try writer.saveAll((0..<count).map { record("countdown-\($0)", seconds: Int64(60 + $0)) })
        try writer.open().close()
        return dir
    }

    @Test("reads what a listing reads, with the same few SQL statements whatever the store holds, and without the full open")
    func fewStatements() throws {
        var statements: [Int] = []
        for count in [1, 1000] {
            let dir = try filled(count)
            let store = SQLiteCountdownStore(directory: dir)
            let glanced = try store.glance()
            #expect(glanced == (try SQLiteCountdownStore(directory: dir).listing()))
            #expect(glanced.countdowns.count == count)
            #expect(!store.hasOpened, "no journal-mode switch, migration check or change-log set-up")
            #expect(store.integrityChecks == 0)
            statements.append(store.glanceCounter.statements)
        }
        #expect(statements[0] == statements[1], "\(statements)")
        // GRDB's connection set-up (foreign keys, the schema's first page), then
        // BEGIN, PRAGMA user_version, the migrations' names, the SELECT and COMMIT.
        #expect(statements[0] <= 8, "\(statements)")
    }

    @Test("a glance at some ids reads one row per id and nothing else, whatever the store holds: the same rows and statements at 1 and 10,000 stored")
    func eachReadsOnlyWhatIsAsked() throws {
        var statements: [Int] = []
        for count in [1, 10_000] {
            let dir = try filled(count)
            let store = SQLiteCountdownStore(directory: dir)
            let loaded = try store.glanceEach(ids: ["countdown-0", "nowhere"])
            #expect(loaded.map(\.id) == ["countdown-0", "nowhere"])
            #expect(try loaded[0].record.get() == record("countdown-0", seconds: 60))
            #expect(try loaded[1].record.get() == nil)
            #expect(store.rowsRead == 1, "read \(store.rowsRead) rows of \(count) for one stored id")
            #expect(!store.hasOpened, "no full open")
            statements.append(store.glanceCounter.statements)
        }
        #expect(statements[0] == statements[1], "\(statements)")
        // GRDB's connection set-up, BEGIN, PRAGMA user_version, the migrations' names,
        // one SELECT per id, COMMIT.
        #expect(statements[0] <= 9, "\(statements)")
    }

    @Test("a glance at some ids gives what loadEach gives: an unreadable row as its error, an id with a NUL byte as none stored, an older schema through the full open")
    func eachMatchesLoadEach() throws {
        let dir = try filled(3)
        try DatabaseQueue(path: StateDirectory.storePath(in: dir)).write { db in
            try db.execute(sql: "UPDATE countdown SET total = -5 WHERE id = 'countdown-1'")
        }
        let ids = ["countdown-2", "countdown-1", "a\0b", "countdown-2"]
        let glanced = try SQLiteCountdownStore(directory: dir).glanceEach(ids: ids)
        let loaded = try SQLiteCountdownStore(directory: dir).loadEach(ids: ids)
        #expect(glanced.map(\.id) == ids)
        for (g, l) in zip(glanced, loaded) {
            switch (g.record, l.record) {
            case (.success(let a), .success(let b)): #expect(a == b, "\(g.id)")
            case (.failure(let a as StoreError), .failure(let b as StoreError)):
                #expect(a.unreadable != nil && a.unreadable == b.unreadable, "\(g.id)")
            default: Issue.record("\(g.id): \(g.record) against \(l.record)")
            }
        }
        let old = temporaryDirectory()
        try writeSchemaV1Store(in: old, holding: [record("old")])
        let store = SQLiteCountdownStore(directory: old)
        #expect(try store.glanceEach(ids: ["old"]).first?.record.get()?.id == "old")
        #expect(store.hasOpened, "migrated as every command migrates it")
    }

    @Test("writes nothing: the store file and its write-ahead log keep their bytes")
    func writesNothing() throws {
        let dir = try filled(3)
        let path = StateDirectory.storePath(in: dir)
        // A store a writer still holds open: its changes are in the write-ahead log.
        let holder = SQLiteCountdownStore(directory: dir)
        try holder.save(record("late"))
        let before = (contents(path), contents(path + "-wal"))
        let store = SQLiteCountdownStore(directory: dir)
        #expect(try store.glance().countdowns.map(\.id).contains("late"))
        #expect(contents(path) == before.0)
        #expect(contents(path + "-wal") == before.1)
        withExtendedLifetime(holder) {}
    }

    @Test("falls back to the full open for a store of an older schema, which is migrated as every command migrates it")
    func olderSchema() throws {
        let dir = temporaryDirectory()
        try writeSchemaV1Store(in: dir, holding: [record("old")])
        let store = SQLiteCountdownStore(directory: dir)
        #expect(try store.glance().countdowns.map(\.id) == ["old"])
        #expect(store.hasOpened)
        let version = try DatabaseQueue(path: store.path).read { try Int.fetchOne($0, sql: "PRAGMA user_version") }
        #expect(version == SQLiteCountdownStore.schemaVersion)
    }

    @Test("refuses what a listing refuses, with the same error: a newer schema, an unknown migration, a file that is not a database")
    func refusals() throws {
        let newer = try filled(1)
        try DatabaseQueue(path: StateDirectory.storePath(in: newer)).write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations VALUES ('v99'); PRAGMA user_version = 99")
        }
        let unknown = try filled(1)
        try DatabaseQueue(path: StateDirectory.storePath(in: unknown)).write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations VALUES ('v9-future')")
        }
        let garbage = temporaryDirectory()
        try FileManager.default.createDirectory(atPath: garbage, withIntermediateDirectories: true)
        try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: StateDirectory.storePath(in: garbage)))
        for dir in [newer, unknown, garbage] {
            let bytes = contents(StateDirectory.storePath(in: dir))
            var glanced: StoreError?, listed: StoreError?
            do { _ = try SQLiteCountdownStore(directory: dir).glance() } catch let error as StoreError { glanced = error }
            do { _ = try SQLiteCountdownStore(directory: dir).listing() } catch let error as StoreError { listed = error }
            #expect(glanced != nil, "\(dir)")
            #expect(glanced?.description == listed?.description)
            #expect(glanced?.kind == listed?.kind)
            #expect(contents(StateDirectory.storePath(in: dir)) == bytes, "the file was left as it is")
        }
    }

    @Test("an empty file (a store being created) reads as no countdowns and stays empty")
    func emptyFile() throws {
        let dir = temporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = StateDirectory.storePath(in: dir)
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        #expect(try SQLiteCountdownStore(directory: dir).glance().countdowns.isEmpty)
        #expect(contents(path) == Data())
    }
}
