import Foundation
import GRDB
import RedisTestServer
import Testing

/// A store of `count` persistent countdowns written by a run that ended normally.
func seededStore(_ count: Int, in dir: String = Scratch.directory("check")) throws -> String {
    let script = Scratch.script("for i = 1, \(count) do countdown.start{ id = 'c' .. i, seconds = 3600, persist = true } end os.exit(0)")
    let seed = try LiveProcess.run(["--state-dir", dir, script])
    #expect(seed.status == 0, "\(seed.stderr)")
    // Every page into the main file, as after the last connection closed (a
    // command's exit leaves them in the WAL).
    let queue = try DatabaseQueue(path: dir + "/state.sqlite")
    try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
    try queue.close()
    return dir
}

/// Overwrites the page in the middle of the file.
func damageMiddlePage(of path: String) throws {
    let size = try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    let pages = size / 4096
    #expect(pages >= 8, "\(pages) pages")
    let handle = try #require(FileHandle(forWritingAtPath: path))
    defer { try? handle.close() }
    try handle.seek(toOffset: UInt64(pages / 2 * 4096))
    try handle.write(contentsOf: Data(repeating: 0x55, count: 4096))
}

/// The registrations of processes that have the store in `dir` open for writing.
func storeWriters(_ dir: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: dir + "/state.sqlite-writers")) ?? []).sorted()
}

extension StoreFaults {
    @Suite("cdscript check: exit 0 when whole, 9 when damaged, 6 when it cannot check; it never changes the store", .serialized)
    struct CheckCommandTests {
        @Test("a whole store: the summary line, exit 0, not a byte changed, no process registered")
        func whole() throws {
            let dir = try seededStore(300)
            let path = dir + "/state.sqlite"
            let before = StoreInspection.sha(path)
            let check = try LiveProcess.run(["check", "--state-dir", dir])
            #expect(check.status == 0, "\(check.stderr)")
            #expect(check.lines == ["checked 300 countdowns in \(path): ok"])
            #expect(StoreInspection.sha(path) == before)
            #expect(storeWriters(dir) == [])
            let full = try LiveProcess.run(["check", "--full", "--json", "--state-dir", dir])
            #expect(full.status == 0)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(full.lines.joined(separator: "\n").utf8)) as? [String: Any])
            #expect(json["ok"] as? Bool == true)
            #expect(json["countdowns"] as? Int == 300)
            #expect(json["store"] as? String == path)
            #expect((json["problems"] as? [Any])?.isEmpty == true)
        }

        @Test("no store at all: exit 0, and nothing is created")
        func missing() throws {
            let dir = Scratch.directory("check-none") + "/state"
            let check = try LiveProcess.run(["check", "--state-dir", dir])
            #expect(check.status == 0, "\(check.stderr)")
            #expect(check.lines.last == "checked 0 countdowns in \(dir)/state.sqlite: ok")
            #expect(!FileManager.default.fileExists(atPath: dir))
        }

        @Test("a page overwritten in the middle of a copy: one line per problem, the summary, exit 9, the copy unchanged")
        func damagedPage() throws {
            let dir = try seededStore(2_000)
            let copy = Scratch.directory("check-copy")
            try FileManager.default.copyItem(atPath: dir + "/state.sqlite", toPath: copy + "/state.sqlite")
            try damageMiddlePage(of: copy + "/state.sqlite")
            let before = StoreInspection.sha(copy + "/state.sqlite")
            let check = try LiveProcess.run(["check", "--state-dir", copy])
            #expect(check.status == 9, "\(check.lines) \(check.stderr)")
            #expect(check.lines.first?.hasPrefix("file: ") == true, "\(check.lines)")
            #expect(check.lines.last?.hasPrefix("checked ") == true && check.lines.last?.contains("problem") == true, "\(check.lines)")
            #expect(StoreInspection.sha(copy + "/state.sqlite") == before)
        }

        @Test("a row written with SQLite directly that does not decode: its id on a line, exit 9; clear removes it and check passes")
        func undecodableRow() throws {
            let dir = try seededStore(5)
            let queue = try DatabaseQueue(path: dir + "/state.sqlite")
            try queue.write { db in try db.execute(sql: "UPDATE countdown SET total = -5 WHERE id = 'c2'") }
            try queue.close()
            let check = try LiveProcess.run(["check", "--state-dir", dir])
            #expect(check.status == 9)
            #expect(check.lines.contains { $0.hasPrefix("countdown 'c2': column total = -5") }, "\(check.lines)")
            #expect(check.lines.last == "checked 5 countdowns in \(dir)/state.sqlite: 1 problem")
            #expect(try LiveProcess.run(["clear", "--state-dir", dir]).status == 0)
            #expect(try LiveProcess.run(["check", "--state-dir", dir]).status == 0)
        }

        @Test("a store that cannot be checked (a directory in its place) exits 6, naming it")
        func uncheckable() throws {
            let dir = Scratch.directory("check-dir")
            try FileManager.default.createDirectory(atPath: dir + "/state.sqlite", withIntermediateDirectories: true)
            let check = try LiveProcess.run(["check", "--state-dir", dir])
            #expect(check.status == 6, "\(check.lines) \(check.stderr)")
            #expect(check.stderr.contains(dir + "/state.sqlite"))
        }

        @Test("Redis: an undecodable field is named, exit 9; an unreachable server exits 6")
        func redis() throws {
            let server = try RedisServer()
            defer { server.stop() }
            let seed = try LiveProcess.run(["--store", server.url, Scratch.script("countdown.start{ id = 'fine', seconds = 3600, persist = true } os.exit(0)")])
            #expect(seed.status == 0, "\(seed.stderr)")
            #expect(try LiveProcess.run(["check", "--store", server.url]).status == 0)
            try server.cli("HSET", "cdscript:countdowns", "broken", "garbage")
            let check = try LiveProcess.run(["check", "--store", server.url])
            #expect(check.status == 9)
            #expect(check.lines.contains { $0.hasPrefix("countdown 'broken': field record = garbage") }, "\(check.lines)")
            #expect(check.lines.last?.hasPrefix("checked 2 countdowns in redis://") == true && check.lines.last?.hasSuffix(": 1 problem") == true, "\(check.lines)")
            server.stop()
            let gone = try LiveProcess.run(["check", "--store", server.url])
            #expect(gone.status == 6, "\(gone.stderr)")
        }
    }
}
