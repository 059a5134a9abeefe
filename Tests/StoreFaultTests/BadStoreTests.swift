import Foundation
import GRDB
import Testing

/// A script with one ordinary and one persistent countdown, and a fetch.
private let mixedScript = """
    countdown.start{ id = "plain", seconds = 0.3, on_done = function() print("plain done") end }
    countdown.start{ id = "kept", seconds = 0.2, persist = true, on_done = function() print("kept done") end }
    local h, why = countdown.fetch("other")
    print("fetch", h, why)
    """

extension StoreFaults {
    @Suite("A corrupt, unreadable or newer-schema store: a clear error naming the file, the file left as it is, the countdowns still run", .serialized)
    struct BadStoreTests {
        private func expectRefused(_ dir: String, mentioning text: String) throws {
            let path = dir + "/state.sqlite"
            let before = StoreInspection.sha(path)
            let run = try LiveProcess.run(["--state-dir", dir, Scratch.script(mixedScript)])
            #expect(run.status == 6, "stderr: \(run.stderr)")
            #expect(Set(run.lines) == ["fetch\tnil\tunavailable", "kept done", "plain done"])
            let errors = run.stderr.split(separator: "\n")
            #expect(errors.count == 1, "reported once: \(run.stderr)")
            #expect(run.stderr.contains(path))
            #expect(run.stderr.contains(text), "\(run.stderr)")
            #expect(run.stderr.contains("persistent countdowns run on without the store"))
            #expect(StoreInspection.sha(path) == before, "the store file was changed")

            for command in [["list"], ["list", "--json"], ["clear"], ["cancel", "kept"]] {
                let result = try LiveProcess.run(command + ["--state-dir", dir])
                #expect(result.status == 6, "\(command): \(result.stderr)")
                #expect(result.stderr.contains(path), "\(command): \(result.stderr)")
                #expect(StoreInspection.sha(path) == before, "\(command) changed the store file")
            }
        }

        @Test("a file that is not a database")
        func garbage() throws {
            let dir = Scratch.directory("garbage")
            try Data(repeating: 0x42, count: 10_000).write(to: URL(fileURLWithPath: dir + "/state.sqlite"))
            try expectRefused(dir, mentioning: "is damaged or not a cdscript store")
        }

        @Test("a store written by a newer cdscript")
        func newer() throws {
            let dir = Scratch.directory("newer")
            let seed = try LiveProcess.run(["--state-dir", dir, Scratch.script(#"countdown.start{ id = "old", seconds = 0.1, persist = true }"#)])
            #expect(seed.status == 0)
            let queue = try DatabaseQueue(path: dir + "/state.sqlite")
            try queue.write { db in
                try db.execute(sql: "INSERT INTO grdb_migrations VALUES ('v99')")
                try db.execute(sql: "PRAGMA user_version = 99")
            }
            try queue.close()
            try expectRefused(dir, mentioning: "written by a newer cdscript (schema version 99")
        }

        @Test("a store that cannot be opened (a directory in its place; root reads any file, so permissions cannot make one unreadable here)")
        func unopenable() throws {
            let dir = Scratch.directory("unopenable")
            try FileManager.default.createDirectory(atPath: dir + "/state.sqlite", withIntermediateDirectories: true)
            try expectRefused(dir, mentioning: "it is a directory")
        }

        @Test("an unreadable file: every command and script is refused with exit 6 and the file is left as it is (as root, they run as nobody)")
        func unreadable() throws {
            let dir = OtherUser.directory("unreadable")
            defer { OtherUser.remove(dir) }
            let script = dir + "/seed.lua"
            OtherUser.write(#"countdown.start{ id = "a", seconds = 600, persist = true }; os.exit(0)"#, to: script)
            let seeded = SpawnedRun.run(["--state-dir", dir, script], user: OtherUser.user)
            #expect(seeded.exitCode == 0, "\(seeded.stderr)")
            // The same user reads the store while its mode lets it: what follows is the mode's doing.
            let readable = SpawnedRun.run(["list", "--state-dir", dir], user: OtherUser.user)
            #expect(readable.exitCode == 0 && readable.stdout.contains("a"), "\(readable.stderr)")
            let path = dir + "/state.sqlite"
            chmod(path, 0)
            defer { chmod(path, 0o600) }
            let before = StoreInspection.sha(path)
            let commands = [["list"], ["list", "--json"], ["status", "a"], ["clear"], ["cancel", "a"]].map { $0 + ["--state-dir", dir] }
            // A script that ends by itself (not by os.exit) ends with the store's exit code.
            let later = dir + "/later.lua"
            OtherUser.write(#"countdown.start{ id = "b", seconds = 0.1, persist = true }"#, to: later)
            for command in commands + [["--state-dir", dir, later]] {
                let outcome = SpawnedRun.run(command, user: OtherUser.user)
                #expect(outcome.exitCode == 6, "\(command): \(outcome.stderr)")
                #expect(outcome.stderr.contains(path), "\(command): \(outcome.stderr)")
            }
            #expect(StoreInspection.sha(path) == before, "the store file was changed")
        }
    }
}
