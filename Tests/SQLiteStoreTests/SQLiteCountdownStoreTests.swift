import CountdownCore
import SQLiteAccess
import SQLiteStore
import Foundation
import GRDB
import Testing

private let s = Time.nanosecondsPerSecond

func temporaryDirectory() -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-store-\(UUID().uuidString)").path
    return dir
}

func record(_ id: String, seconds: Int64 = 60, state: StoredCountdown.State = .running) -> StoredCountdown {
    StoredCountdown(id: id, state: state, kind: .duration, wallDeadline: (1_000_000 + seconds) * s,
                    every: s, total: seconds * s, bootID: "A", bootDeadline: (100 + seconds) * s, updatedAt: 1_000_000 * s)
}

/// The ids s0, s1, ..., `count` of them.
func ids(_ count: Int) -> [String] { (0..<count).map { "s\($0)" } }

/// A `record` for each of `ids(count)`.
func many(_ count: Int) -> [StoredCountdown] { ids(count).map { record($0) } }

/// Waits on the watcher's descriptors for up to `timeout` seconds, until it reports something.
func firstChange(_ watcher: SQLiteChangeWatcher, within timeout: Double = 5) -> CountdownChanges {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        var fds = watcher.descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        if poll(&fds, nfds_t(fds.count), Int32(max(1, deadline.timeIntervalSinceNow * 1000))) > 0 {
            let seen = watcher.drain()
            if seen != .none { return seen }
        }
    }
    return .none
}

func mode(_ path: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]) as? Int) ?? -1
}

func contents(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

@Suite("The SQLite countdown store")
struct SQLiteCountdownStoreTests {
    @Test("creates nothing until it is used, then the file with mode 0600 in new directories with mode 0700")
    func lazyCreationAndModes() throws {
        let root = temporaryDirectory()
        let dir = root + "/a/b"
        let store = SQLiteCountdownStore(directory: dir)
        #expect(!FileManager.default.fileExists(atPath: root))
        try store.save(record("x"))
        #expect(store.path == dir + "/state.sqlite")
        #expect(mode(store.path) == 0o600)
        #expect(mode(dir) == 0o700)
        #expect(mode(root + "/a") == 0o700)
        for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: store.path + suffix) {
            #expect(mode(store.path + suffix) == 0o600, "\(suffix)")
        }
    }

    @Test("uses WAL, synchronous FULL and a versioned schema")
    func pragmas() throws {
        let store = SQLiteCountdownStore(directory: temporaryDirectory())
        let db = try store.open()
        let journal = try db.value("PRAGMA journal_mode")?.text
        let synchronous = try db.value("PRAGMA synchronous")?.integer
        let version = try db.value("PRAGMA user_version")?.integer.map(Int.init)
        let migrations = try db.texts("SELECT identifier FROM grdb_migrations")
        #expect(journal == "wal")
        #expect(synchronous == 2)
        #expect(version == SQLiteCountdownStore.schemaVersion)
        #expect(migrations == ["v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8"])
    }
}

@Suite("A store that cannot be used is refused with the file named, and left as it is")
struct StoreRefusalTests {
    private func expectRefused(_ dir: String, _ kind: StoreError.Kind, mentioning text: String? = nil) throws {
        let store = SQLiteCountdownStore(directory: dir)
        let before = contents(store.path)
        var caught: StoreError?
        do {
            _ = try store.list()
        } catch let error as StoreError {
            caught = error
        }
        let error = try #require(caught)
        #expect(error.kind == kind)
        #expect(error.description.contains(store.path))
        if let text { #expect(error.description.contains(text), "\(error)") }
        #expect(contents(store.path) == before, "the file changed")
        // The failure is kept: a second call fails the same way without touching the file.
        #expect(throws: StoreError.self) { try store.save(record("y")) }
        #expect(contents(store.path) == before, "the file changed")
    }

    @Test("a file that is not a database")
    func garbage() throws {
        let dir = temporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: StateDirectory.storePath(in: dir)))
        try expectRefused(dir, .corrupt, mentioning: "left as it is")
    }

    @Test("a store whose pages were overwritten")
    func damagedPages() throws {
        let dir = temporaryDirectory()
        let store = SQLiteCountdownStore(directory: dir)
        for i in 0..<200 { try store.save(record("countdown-\(i)")) }
        let db = try store.open()
        try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        db.close()
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: store.path))
        let size = try handle.seekToEnd()
        try handle.seek(toOffset: size / 2)
        handle.write(Data(repeating: 0xA5, count: 4096 * 3))
        try handle.close()
        try expectRefused(dir, .corrupt)
    }

    @Test("a store written by a newer cdscript")
    func newerSchema() throws {
        let dir = temporaryDirectory()
        let store = SQLiteCountdownStore(directory: dir)
        try store.save(record("x"))
        let db = try store.open()
        try db.execute("INSERT INTO grdb_migrations VALUES ('v99'); PRAGMA user_version = 99")
        db.close()
        try expectRefused(dir, .newerSchema, mentioning: "schema version 99")
    }

    @Test("a newer migration without a version number is refused too")
    func unknownMigration() throws {
        let dir = temporaryDirectory()
        let store = SQLiteCountdownStore(directory: dir)
        let db = try store.open()
        try db.execute("INSERT INTO grdb_migrations VALUES ('v9-future')")
        db.close()
        try expectRefused(dir, .newerSchema, mentioning: "migrations")
    }

    @Test("someone else's SQLite database")
    func foreignDatabase() throws {
        let dir = temporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let queue = try DatabaseQueue(path: StateDirectory.storePath(in: dir))
        try queue.write { try $0.execute(sql: "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('keep me')") }
        try queue.close()
        try expectRefused(dir, .corrupt, mentioning: "no 'countdown' table")
    }

    @Test("a directory where the file should be")
    func directoryInTheWay() throws {
        let dir = temporaryDirectory()
        try FileManager.default.createDirectory(atPath: StateDirectory.storePath(in: dir), withIntermediateDirectories: true)
        try expectRefused(dir, .unavailable, mentioning: "directory")
    }

    @Test("a state directory that is a file")
    func fileInTheWay() throws {
        let dir = temporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: dir + "/state"))
        try expectRefused(dir + "/state", .unavailable, mentioning: "not a directory")
    }

    @Test("an unreadable file is refused as unavailable and left as it is (as root, the store is used as nobody)")
    func unreadable() throws {
        let dir = AsNobody.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/state.sqlite"
        // The same user saves and reads while the mode lets it: what follows is the mode's doing.
        let saved = AsNobody.run { try SQLiteCountdownStore(directory: dir).save(record("x")) }
        #expect(throws: Never.self) { try saved.get() }
        chmod(path, 0)
        defer { chmod(path, 0o600) }
        let before = contents(path)
        let listed = AsNobody.run { try SQLiteCountdownStore(directory: dir).list() }
        #expect(throws: StoreError.self) { try listed.get() }
        if case .failure(let error as StoreError) = listed {
            #expect(error.kind == .unavailable, "\(error)")
            #expect(error.description.contains(path), "\(error)")
        }
        #expect(contents(path) == before, "the file changed")
    }
}

@Suite("Where the store lives")
struct StateDirectoryTests {
    @Test("--state-dir first, then CDSCRIPT_STATE_DIR, then XDG_STATE_HOME, then ~/.local/state")
    func precedence() {
        let env = ["CDSCRIPT_STATE_DIR": "/env", "XDG_STATE_HOME": "/xdg", "HOME": "/home/u"]
        #expect(StateDirectory.resolve(option: "/opt", environment: { env[$0] }) == "/opt")
        #expect(StateDirectory.resolve(option: nil, environment: { env[$0] }) == "/env")
        #expect(StateDirectory.resolve(option: nil, environment: { ["XDG_STATE_HOME": "/xdg", "HOME": "/home/u"][$0] }) == "/xdg/cdscript")
        #expect(StateDirectory.resolve(option: nil, environment: { ["XDG_STATE_HOME": "relative", "HOME": "/home/u"][$0] }) == "/home/u/.local/state/cdscript")
        #expect(StateDirectory.resolve(option: nil, environment: { ["HOME": "/home/u"][$0] }) == "/home/u/.local/state/cdscript")
        #expect(StateDirectory.storePath(in: "/d/") == "/d/state.sqlite")
    }
}
