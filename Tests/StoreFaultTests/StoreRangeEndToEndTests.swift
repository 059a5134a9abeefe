import Foundation
import GRDB
import RedisTestServer
import Testing

/// What `cdscript append` refuses, and how it names the bound.
private let longestText = "2305843009 seconds (about 73 years)"

/// The commands that read or change a store, with `--state-dir`/`--store` put in by `withStore`.
private func everyCommand(script: String) -> [[String]] {
    [["list"], ["list", "--json"], ["clear"], ["cancel", "x"], ["append", "x", "1"], ["pause", "x"], ["resume", "x"],
     ["watch", "--plain"], ["run", script]]
}

private func withStore(_ command: [String], _ store: [String]) -> [String] {
    [command[0]] + store + command.dropFirst()
}

/// A run that stores the extremes: the longest countdown, an `at` far beyond 2043, and one to append to.
private let extremesScript = Scratch.script("""
    countdown.start{ id = "longest", seconds = 2305843009, persist = true }
    countdown.start{ id = "far", at = "2061-01-01T00:00:00Z", persist = true }
    countdown.start{ id = "grown", seconds = 60, persist = true }
    os.exit(0)
    """)

/// Every accepted deadline is stored and read back; the bound is refused at the call.
private func expectExtremesReadBack(_ store: [String]) throws {
    let seeded = SpawnedRun.run(store + [extremesScript])
    #expect(seeded.exitCode == 0, "\(seeded.stderr)")
    // 1e9 s (31 years) more, then more up to the longest length.
    for seconds in ["1000000000", "1000000000"] {
        let appended = SpawnedRun.run(withStore(["append", "grown", seconds], store))
        #expect(appended.exitCode == 0, "\(appended.stderr)")
    }
    let listed = SpawnedRun.run(withStore(["list", "--json"], store))
    #expect(listed.exitCode == 0, "\(listed.stderr)")
    #expect(StoreFaults.DamagedRowTests.listedIDs(listed.stdout) == ["far", "grown", "longest"])
    // 2e9 s are in: 305843009 s more is the bound exactly; 1 s beyond it is refused, naming it.
    let tooMuch = SpawnedRun.run(withStore(["append", "grown", "305843009"], store))
    #expect(tooMuch.exitCode == 64, "\(tooMuch.stderr)")
    #expect(tooMuch.stderr.contains(longestText), "\(tooMuch.stderr)")
    let exact = SpawnedRun.run(withStore(["append", "grown", "305842949"], store))
    #expect(exact.exitCode == 0, "\(exact.stderr)")
    let longest = SpawnedRun.run(withStore(["append", "longest", "1"], store))
    #expect(longest.exitCode == 64, "\(longest.stderr)")
    #expect(longest.stderr.contains(longestText), "\(longest.stderr)")
    for command in [["list"], ["clear"], ["append", "far", "1000000000"], ["pause", "grown"], ["resume", "grown"]] {
        let outcome = SpawnedRun.run(withStore(command, store))
        #expect(outcome.exitCode == 0, "\(command): \(outcome.stderr)")
    }
    let fetched = SpawnedRun.run(store + [Scratch.script("""
        for _, id in ipairs{ "longest", "far", "grown" } do
          local h, why = countdown.fetch(id)
          assert(h, id .. ": " .. tostring(why))
          print(id, h:remaining() > 1e9)
        end
        os.exit(0)
        """)])
    #expect(fetched.exitCode == 0, "\(fetched.stderr)")
    #expect(fetched.stdout == "longest\ttrue\nfar\ttrue\ngrown\ttrue\n", "\(fetched.stdout)")
}

extension StoreFaults {
    @Suite("Every deadline that is accepted is stored and read back; the SQLite store never rewrites what it did not create", .serialized)
    struct StoreRangeEndToEndTests {
        @Test("SQLite: the longest countdown, an `at` in 2061, appends of 1e9 s up to the bound: listed, changed, fetched; beyond the bound refused with exit 64")
        func extremesInSQLite() throws {
            try expectExtremesReadBack(["--state-dir", Scratch.directory("extremes")])
        }

        @Test("a 1-byte (or short) state.sqlite is refused by every command and left byte for byte", arguments: [1, 2, 50])
        func shortFile(size: Int) throws {
            let dir = Scratch.directory("short")
            let path = dir + "/state.sqlite"
            let bytes = Data(repeating: 0x0A, count: size)
            try bytes.write(to: URL(fileURLWithPath: path))
            let script = Scratch.script(#"countdown.start{ id = "x", seconds = 0.1, persist = true }"#)
            for command in everyCommand(script: script) {
                let outcome = SpawnedRun.run(withStore(command, ["--state-dir", dir]), timeout: 10)
                #expect(outcome.signal == nil, "\(command): \(outcome.stderr)")
                #expect(outcome.exitCode == 6, "\(command): \(outcome.stderr)")
                #expect(outcome.stderr.contains("not an SQLite database"), "\(command): \(outcome.stderr)")
                #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes, "\(command) changed the file")
            }
        }

        @Test("an empty state.sqlite: read-only commands see no countdowns and leave it empty")
        func emptyFile() throws {
            let dir = Scratch.directory("empty")
            let path = dir + "/state.sqlite"
            FileManager.default.createFile(atPath: path, contents: Data())
            for command in [["list"], ["list", "--json"], ["clear"]] {
                let outcome = SpawnedRun.run(withStore(command, ["--state-dir", dir]))
                #expect(outcome.exitCode == 0, "\(command): \(outcome.stderr)")
            }
            for command in [["cancel", "x"], ["append", "x", "1"], ["pause", "x"]] {
                let outcome = SpawnedRun.run(withStore(command, ["--state-dir", dir]))
                #expect(outcome.exitCode == 7, "\(command): \(outcome.stderr)")
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)).isEmpty)
            #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        }

        @Test("a state folder that is a regular file (or lies below one): every command exits 6 saying it is not a directory")
        func folderIsAFile() throws {
            let root = Scratch.directory("notdir")
            let file = root + "/state"
            try Data("x".utf8).write(to: URL(fileURLWithPath: file))
            let script = Scratch.script(#"countdown.start{ id = "x", seconds = 0.1, persist = true }"#)
            for dir in [file, file + "/below"] {
                for command in everyCommand(script: script) {
                    let outcome = SpawnedRun.run(withStore(command, ["--state-dir", dir]), timeout: 10)
                    #expect(outcome.exitCode == 6, "\(dir) \(command): \(outcome.stderr)")
                    #expect(outcome.stderr.lowercased().contains("not a directory"), "\(dir) \(command): \(outcome.stderr)")
                }
            }
            #expect(try String(contentsOfFile: file, encoding: .utf8) == "x")
        }
    }

    @Suite("The Redis store: the same range, bad records named and removable, followers never crash", .serialized)
    final class RedisRangeEndToEndTests {
        let server: RedisServer
        var store: [String] { ["--store", server.url] }

        init() throws { server = try RedisServer() }

        @Test("Redis: the extremes are stored and read back; beyond the bound refused with exit 64")
        func extremesInRedis() throws {
            try expectExtremesReadBack(store)
        }

        @Test("values near ±2^63 or of the wrong type: list shows the rest and names each; append, pause, resume exit 6; cancel and clear remove them; no signal")
        func badRecords() throws {
            let seeded = SpawnedRun.run(store + [Scratch.script(#"countdown.start{ id = "good", seconds = 3600, persist = true }; os.exit(0)"#)])
            #expect(seeded.exitCode == 0, "\(seeded.stderr)")
            let bad = [("max", "1|running|duration|9223372036854775807||1000000000|60000000000|0"),
                       ("min", "1|running|wall|-9223372036854775808||1000000000|60000000000|0"),
                       ("type", "1|paused|duration|0|soon|1000000000|60000000000|0")]
            for (id, value) in bad { try server.cli("HSET", "cdscript:countdowns", id, value) }
            for command in [["list"], ["list", "--json"]] {
                let listed = SpawnedRun.run(withStore(command, store))
                #expect(listed.signal == nil && listed.exitCode == 6, "\(command): \(listed.stderr)")
                #expect(StoreFaults.DamagedRowTests.listedIDs(listed.stdout) == ["good"], "\(listed.stdout)")
                for (id, _) in bad { #expect(listed.stderr.contains("'\(id)'"), "\(listed.stderr)") }
                #expect(listed.stderr.contains("field wall_deadline = 9223372036854775807"), "\(listed.stderr)")
            }
            for (id, _) in bad {
                for command in [["append", id, "1"], ["pause", id], ["resume", id]] {
                    let outcome = SpawnedRun.run(withStore(command, store))
                    #expect(outcome.signal == nil, "\(command): signal \(outcome.signal ?? 0)")
                    #expect(outcome.exitCode == 6, "\(command): \(outcome.stderr)")
                    #expect(outcome.stderr.contains("cdscript cancel '\(id)'"), "\(command): \(outcome.stderr)")
                }
            }
            #expect(SpawnedRun.run(withStore(["append", "good", "1"], store)).exitCode == 0)
            let cancelled = SpawnedRun.run(withStore(["cancel", "max"], store))
            #expect(cancelled.exitCode == 0, "\(cancelled.stderr)")
            let cleared = SpawnedRun.run(withStore(["clear"], store))
            #expect(cleared.exitCode == 0, "\(cleared.stderr)")
            #expect(cleared.stdout.contains("removed 2 unreadable countdowns"), "\(cleared.stdout)")
            let listed = SpawnedRun.run(withStore(["list"], store))
            #expect(listed.exitCode == 0, "\(listed.stderr)")
            #expect(StoreFaults.DamagedRowTests.listedIDs(listed.stdout) == ["good"])
        }

        @Test("a process following its countdowns survives another writer storing a bad record for one: named, skipped, the other followed")
        func followerSurvives() throws {
            let run = try LiveProcess(store + [Scratch.script("""
                countdown.start{ id = "f", seconds = 1.5, persist = true, on_done = function() print("f done") end }
                countdown.start{ id = "g", seconds = 1.5, persist = true, on_done = function() print("g done") end }
                print("started")
                """)])
            defer { run.signal(SIGKILL) }
            #expect(run.waitForLine { $0 == "started" } != nil, "\(run.stderr)")
            try server.cli("HSET", "cdscript:countdowns", "f", "1|running|duration|9223372036854775807||1000000000|60000000000|0")
            try server.cli("PUBLISH", "cdscript:changes:0", "f")
            // Another writer's append to g is still followed.
            let appended = SpawnedRun.run(withStore(["append", "g", "0.5"], store))
            #expect(appended.exitCode == 0, "\(appended.stderr)")
            let status = run.wait(timeout: 15)
            #expect(status == 6, "\(run.stderr)")
            #expect(Set(run.texts) == ["started", "f done", "g done"], "\(run.texts)")
            #expect(run.stderr.contains("'f'") && run.stderr.contains("field wall_deadline"), "\(run.stderr)")
        }
    }
}
