import Foundation
import RedisTestServer
import Testing

extension RedisStoreFaults {
    /// `cdscript status` and `watch --bar` on a Redis store: the same lines as on
    /// SQLite, through a real redis-server this suite starts on a free loopback
    /// port (and stops, also when a test fails). Every command gets a scratch
    /// `--state-dir`, so nothing is written under ~/.local/state.
    @Suite("cdscript status and watch --bar on Redis", .serialized)
    final class RedisStatusBarTests {
        let server: RedisServer
        /// The state folder every command of a test gets (the Redis client's outage queue would go there).
        let stateDir = Scratch.directory("redis-status")
        var store: [String] { ["--store", server.url, "--state-dir", stateDir] }

        init() throws { server = try RedisServer() }

        /// The countdowns of `StoreFaults.StatusBarTests.seeded` ("tea" running 300 s, "held"
        /// paused at 90 s, "done" finished), stored on this suite's server.
        func seed() throws {
            let seeded = try LiveProcess.run(store + [Scratch.script("""
                countdown.start{ id = "tea", seconds = 300, persist = true }
                countdown.start{ id = "held", seconds = 90, persist = true }:pause()
                countdown.start{ id = "done", seconds = 0.1, persist = true, on_done = function() os.exit(0) end }
                """)])
            #expect(seeded.status == 0, "\(seeded.stderr)")
            #expect(try server.cli("HEXISTS", "cdscript:countdowns", "tea") == "1", "the countdowns live on the server")
        }

        @Test("status shows a running, a paused and a finished countdown on Redis as it does on SQLite")
        func statusMatchesSQLite() throws {
            try seed()
            let sqlite = try StoreFaults.StatusBarTests.seeded("redis-status-twin")
            for arguments in [["status"], ["status", "done", "held"], ["status", "--format", "{id}|{state}|{mm}:{ss}|{S}", "held", "done"]] {
                let onRedis = try LiveProcess.run(arguments + store)
                let onSQLite = try LiveProcess.run(arguments + ["--state-dir", sqlite])
                #expect(onRedis.status == 0, "\(arguments): \(onRedis.stderr)")
                #expect(onRedis.stderr.isEmpty, "\(arguments): \(onRedis.stderr)")
                #expect(onRedis.lines.count == 1, "\(arguments): \(onRedis.lines)")
                if arguments == ["status"] {
                    // "tea" runs on both; the seconds may have moved between the two reads.
                    #expect(StoreFaults.StatusBarTests.matches(onRedis.lines.first, #"⏲ tea (5:00|4:5[0-9])  ⏸ held 1:30"#), "\(onRedis.lines)")
                    #expect(StoreFaults.StatusBarTests.matches(onSQLite.lines.first, #"⏲ tea (5:00|4:5[0-9])  ⏸ held 1:30"#), "\(onSQLite.lines)")
                } else {
                    #expect(onRedis.lines == onSQLite.lines, "\(arguments)")
                }
            }
            #expect(try LiveProcess.run(["status", "done", "held"] + store).lines == ["⏹ done 0  ⏸ held 1:30"])
            let states = try LiveProcess.run(["status", "--format", "{id} {state}", "tea", "held", "done"] + store)
            #expect(states.lines == ["tea running  held paused  done finished"], "\(states.stderr)")
        }

        /// Calls per command since the last `CONFIG RESETSTAT`, from `INFO commandstats`.
        func calls() throws -> [String: Int] {
            var result: [String: Int] = [:]
            for line in try server.cli("INFO", "commandstats").split(whereSeparator: \.isNewline) where line.hasPrefix("cmdstat_") {
                let name = line.dropFirst("cmdstat_".count).prefix { $0 != ":" }
                guard let field = line.split(separator: ",").first?.split(separator: "=").last, let n = Int(field) else { continue }
                result[String(name)] = n
            }
            return result
        }

        @Test("status with ids reads those countdowns in one command and nothing else of a store of a thousand")
        func statusReadsOnlyTheIDs() throws {
            try seed()
            let many = try LiveProcess.run(store + [Scratch.script("""
                for i = 1, 1000 do countdown.start{ id = "other-" .. i, seconds = 3600, persist = true } end
                os.exit(0)
                """)])
            #expect(many.status == 0, "\(many.stderr)")
            #expect(try server.cli("HLEN", "cdscript:countdowns") == "1003")
            _ = try server.cli("CONFIG", "RESETSTAT")
            let shown = try LiveProcess.run(["status", "held", "tea"] + store)
            #expect(shown.status == 0, "\(shown.stderr)")
            #expect(StoreFaults.StatusBarTests.matches(shown.lines.first, #"⏸ held 1:30  ⏲ tea (5:00|4:5[0-9])"#), "\(shown.lines)")
            var used = try calls()
            used["config"] = nil
            let reads = (used["hmget"] ?? 0) + (used["hget"] ?? 0)
            #expect(reads == 1, "one read for both ids: \(used)")
            for whole in ["hscan", "hgetall", "hkeys", "hvals", "scan", "keys"] {
                #expect(used[whole] == nil, "\(whole) reads more than the ids asked for: \(used)")
            }
        }

        @Test("status on Redis exits 7 for an id that is not stored, after showing the others; 6 when the server is out of reach")
        func statusExits() throws {
            try seed()
            let unknown = try LiveProcess.run(["status", "held", "nope"] + store)
            #expect(unknown.status == 7, "\(unknown.stderr)")
            #expect(unknown.lines == ["⏸ held 1:30"])
            #expect(unknown.stderr.contains("no stored countdown has the id 'nope'"), "\(unknown.stderr)")
            #expect(unknown.stderr.contains(server.url), "the message names the store: \(unknown.stderr)")
            let empty = try LiveProcess.run(["status", "--format", "{id}", "tea"] + ["--store", server.url + "/3", "--state-dir", stateDir])
            #expect(empty.status == 7, "another database of the server holds nothing: \(empty.stderr)")
            let url = "redis://127.0.0.1:\(try RedisServer.freePort())"
            let unreachable = try LiveProcess.run(["status", "tea", "--store", url, "--state-dir", stateDir])
            #expect(unreachable.status == 6, "\(unreachable.stderr)")
            #expect(unreachable.lines.joined().isEmpty, "\(unreachable.lines)")
        }

        @Test("watch --bar waybar on Redis pushes a JSON line when another process appends to or pauses a countdown")
        func waybarFollowsRedis() throws {
            try seed()
            let bar = try LiveProcess(["watch", "--bar", "waybar", "--critical", "0", "--format", "{id} {state} {S}", "held", "tea"] + store)
            defer { bar.signal(SIGKILL); bar.wait() }
            func object(_ line: LiveProcess.Line?) throws -> [String: Any] {
                let text = try #require(line?.text, "\(bar.texts) \(bar.stderr)")
                return try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
            }
            let first = try object(bar.waitForLine { _ in true })
            #expect(StoreFaults.StatusBarTests.matches(first["text"] as? String, #"held paused 90  tea running (300|29[0-9])"#), "\(first)")
            #expect(first["class"] as? [String] == ["paused", "running"])
            // Another process appends 60 s to the paused one: only the store's change feed can tell the bar.
            #expect(try LiveProcess.run(["append", "held", "60"] + store).status == 0)
            let appended = try object(bar.waitForLine(timeout: 5) { $0.contains("held paused 150") })
            #expect((appended["tooltip"] as? String)?.contains("held: paused, 2:30 left") == true, "\(appended)")
            #expect(try LiveProcess.run(["pause", "tea"] + store).status == 0)
            let paused = try object(bar.waitForLine(timeout: 5) { $0.contains("tea paused") })
            #expect(StoreFaults.StatusBarTests.matches(paused["text"] as? String, #"held paused 150  tea paused (300|29[0-9])"#), "\(paused)")
            #expect(paused["class"] as? [String] == ["paused"], "each class once: \(paused)")
            #expect(paused["percentage"] as? Int == 0, "\(paused)")
            bar.signal(SIGTERM)
            #expect(bar.wait() == 143)
            #expect(bar.stderr.isEmpty, "\(bar.stderr)")
        }
    }
}
