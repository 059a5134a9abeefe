import CountdownCore
import SQLiteStore
import Foundation
import GRDB
import Testing

private let s = Time.nanosecondsPerSecond

/// The present as the commands read it.
private func currentInstant() -> StoreInstant {
    let clock = BootClock()
    return StoreInstant(boot: clock.bootNow(), wall: clock.wallNow(), bootID: "A")
}

/// What `countdown.start` stores for a countdown of `length` started at `now`.
private func started(_ id: String, _ length: Nanoseconds, at now: StoreInstant, kind: StoredCountdown.Kind = .duration) -> StoredCountdown {
    StoredCountdown(id: id, state: .running, kind: kind, wallDeadline: now.wall + length, every: s, total: length,
                    bootID: now.bootID, bootDeadline: kind == .duration ? now.boot + length : nil, updatedAt: now.wall)
}

@Suite("The SQLite store keeps every value the range allows and names every row it cannot read")
struct StoreRangeTests {

    @Test("a row beyond the range is named, skipped by listing, removed by delete and clear; the file and the column are named")
    func badRowNamedAndRemovable() throws {
        let store = SQLiteCountdownStore(directory: temporaryDirectory())
        let now = currentInstant()
        for id in ["a", "b", "c"] { try store.save(started(id, 60 * s, at: now)) }
        let queue = try DatabaseQueue(path: store.path)
        try queue.write { db in
            try db.execute(sql: "UPDATE countdown SET wall_deadline = 9223372036854775807 WHERE id = 'a'")
            try db.execute(sql: "UPDATE countdown SET every = 'often' WHERE id = 'c'")
        }
        try queue.close()

        let listing = try store.listing()
        #expect(listing.countdowns.map(\.id) == ["b"])
        #expect(listing.unreadable.map(\.id) == ["a", "c"])
        #expect("\(listing.unreadable[0])".contains("column wall_deadline = 9223372036854775807"))
        #expect("\(listing.unreadable[0])".contains("`cdscript cancel 'a'` removes it"))
        #expect(!"\(listing.unreadable[0])".contains("move it away"))
        #expect {
            try store.load(id: "a")
        } throws: { ($0 as? StoreError)?.kind == .unreadableCountdown }
        #expect(throws: StoreError.self) { try store.list() }

        #expect(try store.delete(id: "a"))
        #expect(try store.clear(at: now).unreadable.map(\.id) == ["c"])
        #expect(try store.list().map(\.id) == ["b"])
    }

    @Test("a 1-byte or short file is refused by every operation and left byte for byte, before SQLite sees it", arguments: [1, 2, 15, 99])
    func shortFileLeftAlone(size: Int) throws {
        let dir = temporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = StateDirectory.storePath(in: dir)
        let bytes = Data(repeating: 0x53, count: size)
        try bytes.write(to: URL(fileURLWithPath: path))
        let store = SQLiteCountdownStore(directory: dir)
        #expect(throws: StoreError.self) { try store.listing() }
        #expect(throws: StoreError.self) { try store.load(id: "x") }
        #expect(throws: StoreError.self) { try SQLiteCountdownStore(directory: dir).save(record("x")) }
        #expect(contents(path) == bytes)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test("an empty file reads as an empty store without being touched; the first write sets it up")
    func emptyFile() throws {
        let dir = temporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = StateDirectory.storePath(in: dir)
        FileManager.default.createFile(atPath: path, contents: Data())
        let store = SQLiteCountdownStore(directory: dir)
        #expect(try store.listing().countdowns.isEmpty)
        #expect(try store.load(id: "x") == nil)
        #expect(try store.clear(at: currentInstant()).finished.isEmpty)
        #expect(contents(path) == Data())
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        try store.save(record("x"))
        #expect(try store.load(id: "x") == record("x"))
    }

    @Test("a state folder that is a regular file: the store exists as far as commands can tell, and every operation says it is not a directory")
    func folderIsAFile() throws {
        let root = temporaryDirectory()
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let file = root + "/state"
        FileManager.default.createFile(atPath: file, contents: Data("not a folder".utf8))
        for dir in [file, file + "/below"] {
            let store = SQLiteCountdownStore(directory: dir)
            #expect(store.fileExists, "\(dir)")
            #expect {
                try store.listing()
            } throws: { "\($0)".lowercased().contains("not a directory") }
            #expect(throws: StoreError.self) { try store.save(record("x")) }
        }
        #expect(contents(file) == Data("not a folder".utf8))
    }
}
