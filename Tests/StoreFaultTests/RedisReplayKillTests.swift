import Foundation
import RedisTestServer
import Testing

extension RedisStoreFaults {
    /// A replay of the outage journal killed with kill -9 at each of its steps in
    /// turn (`CDSCRIPT_TEST_KILL_AFTER_REPLAY_STEP`, a test hook), then run again
    /// by another process: every change applied once, every total exact.
    @Suite("A replay killed at any point applies each queued change once", .serialized)
    final class RedisReplayKillTests {
        let server: RedisServer
        let stateDir = Scratch.directory("replay-kill")
        let snapshot = Scratch.directory("replay-kill-journal")
        static let journalFiles = ["redis-pending.sqlite", "redis-pending.sqlite-wal", "redis-pending.sqlite-shm"]
        static let second: Int64 = 1_000_000_000, append: Int64 = 3_000_000

        init() throws { server = try RedisServer() }

        /// A run that stores `merged` and `single` (100 s each), then, once `flag`
        /// exists, appends 3 ms to `merged` `mergedAppends` times and to `single`
        /// once. Run with the server stopped, the appends to `merged` merge into
        /// one row (should the first find the connection gone before the run saw
        /// it go, that one is a row of its own, numbered: a reply lost), and
        /// `single` is a row alone.
        func script(flag: String, mergedAppends: Int) -> String {
            Scratch.script("""
                local merged = countdown.start{ id = "merged", seconds = 100, persist = true }
                local single = countdown.start{ id = "single", seconds = 100, persist = true }
                print("ready")
                local done = false
                countdown.start{ seconds = 120, every = 0.1, on_tick = function()
                  if done or not io.open("\(flag)") then return end
                  done = true
                  for _ = 1, \(mergedAppends) do merged:append(0.003) end
                  single:append(0.003)
                  print("queued")
                end }
                """)
        }

        /// The stored record's total (field 7 of a Redis record), in nanoseconds.
        func total(_ id: String) throws -> Int64? {
            let record = try server.cli("HGET", "cdscript:countdowns", id)
            let fields = record.split(separator: "|", omittingEmptySubsequences: false)
            return fields.count >= 8 ? Int64(fields[6]) : nil
        }

        func copyJournal(from source: String, to target: String) throws {
            for name in Self.journalFiles {
                try? FileManager.default.removeItem(atPath: target + "/" + name)
                if FileManager.default.fileExists(atPath: source + "/" + name) {
                    try FileManager.default.copyItem(atPath: source + "/" + name, toPath: target + "/" + name)
                }
            }
        }

        /// Puts the server back as the outage left it: its countdowns and epoch
        /// (a changed epoch would read as a server that lost its data), no writer
        /// keys; and the journal back as the interrupted run left it.
        func restore(records: [(String, String)], epoch: String) throws {
            try server.cli("FLUSHALL")
            try server.cli("SET", "cdscript:epoch", epoch)
            for (id, record) in records { try server.cli("HSET", "cdscript:countdowns", id, record) }
            try copyJournal(from: snapshot, to: stateDir)
        }

        func list(environment: [String: String] = [:]) throws -> LiveProcess {
            let run = try LiveProcess(["list", "--store", server.url, "--state-dir", stateDir], environment: environment)
            run.wait(timeout: 30)
            return run
        }

        @Test("kill -9 after each step of a replay of merged and single rows (numbers recorded, a change applied, a row deleted), and of the replay that adopts what is left: the next command applies each change once, every total exact")
        func killedAtEveryStep() throws {
            let mergedAppends = 4
            let flag = Scratch.directory("flag") + "/go"
            let run = try LiveProcess(["--store", server.url, "--state-dir", stateDir, script(flag: flag, mergedAppends: mergedAppends)])
            defer { run.signal(SIGKILL) }
            #expect(run.waitForLine(timeout: 30) { $0 == "ready" } != nil, "\(run.stderr)")
            server.stop()
            _ = FileManager.default.createFile(atPath: flag, contents: nil)
            #expect(run.waitForLine(timeout: 30) { $0 == "queued" } != nil, "\(run.stderr)")
            run.signal(SIGINT)
            #expect(run.wait() == 6, "\(run.stderr)")
            #expect(run.stderr.contains("\(mergedAppends + 1) changes to 2 countdowns could not reach"), "\(run.stderr)")
            try copyJournal(from: stateDir, to: snapshot)
            try server.start()
            let epoch = try server.cli("GET", "cdscript:epoch")
            let records = try ["merged", "single"].map { ($0, try server.cli("HGET", "cdscript:countdowns", $0)) }
            #expect(try total("merged") == 100 * Self.second, "the outage's changes are not on the server yet")

            let expectedMerged = 100 * Self.second + Int64(mergedAppends) * Self.append
            let expectedSingle = 100 * Self.second + Self.append
            var killedAt: [Int] = [], adoptersKilled = 0
            var step = 1
            while step <= 30 {
                try restore(records: records, epoch: epoch)
                let killed = try list(environment: ["CDSCRIPT_TEST_KILL_AFTER_REPLAY_STEP": String(step)])
                guard killed.process.terminationReason == .uncaughtSignal else {
                    // Past the replay's last step: it ran to the end.
                    #expect(killed.process.terminationStatus == 0, "\(killed.stderr)")
                    break
                }
                #expect(killed.process.terminationStatus == SIGKILL, "step \(step): \(killed.stderr)")
                killedAt.append(step)
                // The adopter of what was left is killed too, right after its
                // first step (a row the dead process numbered, applied again or
                // not: its row is still there), unless it has nothing to replay.
                let adopter = try list(environment: ["CDSCRIPT_TEST_KILL_AFTER_REPLAY_STEP": "1"])
                if adopter.process.terminationReason == .uncaughtSignal { adoptersKilled += 1 }
                let next = try list()
                #expect(next.process.terminationReason == .exit && next.process.terminationStatus == 0, "after a kill at step \(step): \(next.stderr)")
                let merged = try total("merged"), single = try total("single")
                #expect(merged == expectedMerged, "kill -9 after step \(step): the merged row applied once")
                #expect(single == expectedSingle, "kill -9 after step \(step): the single row applied once")
                // Nothing is left to send a third time.
                let third = try list()
                #expect(!third.stderr.contains("sent"), "after a kill at step \(step): \(third.stderr)")
                let mergedAgain = try total("merged"), singleAgain = try total("single")
                #expect(mergedAgain == expectedMerged && singleAgain == expectedSingle)
                step += 1
            }
            // Numbers recorded, then the merged row and the single row each
            // applied and deleted: five steps at least.
            #expect(killedAt.count >= 5, "a replay of \(killedAt.count) steps")
            #expect(adoptersKilled >= 1, "an adopter was killed in its replay too")
            print("replay killed with kill -9 after each of steps \(killedAt), its adopter killed after its first step in \(adoptersKilled) of them, then run again: totals checked after each")
        }
    }
}
