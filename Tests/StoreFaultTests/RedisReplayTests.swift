import Foundation
import RedisTestServer
import Testing

extension RedisStoreFaults {
    /// Changes made while the server was away: sent without stopping the run when
    /// it is back, reported when it is not.
    @Suite("Queued Redis changes, end to end", .serialized)
    final class RedisReplayTests {
        let server: RedisServer
        let stateDir = Scratch.directory("replay")

        init() throws { server = try RedisServer() }

        /// A run that ticks every 0.1 s and, once `flag` exists, starts `count`
        /// persistent countdowns (with the server away: `count` queued changes).
        func script(flag: String, count: Int) -> String {
            Scratch.script("""
                countdown.start{ seconds = 120, every = 0.1, on_tick = function(t) print(("tick %.1f"):format(t.elapsed)) end }
                countdown.start{ id = "first", seconds = 100, persist = true }
                print("ready")
                local queued = false
                countdown.start{ seconds = 120, every = 0.1, on_tick = function()
                  if queued or not io.open("\(flag)") then return end
                  queued = true
                  for i = 1, \(count) do countdown.start{ id = "p" .. i, seconds = 100, persist = true } end
                  print("queued")
                end }
                """)
        }

        @Test("20,000 countdowns started during an outage are sent when the server is back while the run goes on ticking")
        func replayKeepsTicking() throws {
            let flag = Scratch.directory("flag") + "/go"
            let run = try LiveProcess(["--store", server.url, "--state-dir", stateDir, script(flag: flag, count: 20_000)])
            defer { run.signal(SIGKILL) }
            #expect(run.waitForLine { $0 == "ready" } != nil, "\(run.stderr)")
            server.stop()
            FileManager.default.createFile(atPath: flag, contents: nil)
            #expect(run.waitForLine(timeout: 60) { $0 == "queued" } != nil, "\(run.stderr)")
            try server.start()
            let back = Date()
            let deadline = back.addingTimeInterval(90)
            var stored = 0
            while stored < 20_001 && Date() < deadline {
                stored = Int(try server.cli("HLEN", "cdscript:countdowns")) ?? 0
                Thread.sleep(forTimeInterval: 0.05)
            }
            let sentIn = Date().timeIntervalSince(back)
            #expect(stored == 20_001, "\(run.stderr)")
            // Ticks went on during the replay: no gap between two tick lines
            // (0.1 s apart) much longer than a slice of the replay (5 ms).
            let start = back.timeIntervalSince(run.started), end = start + sentIn
            let ticks = run.lines.filter { $0.text.hasPrefix("tick") && $0.at >= start && $0.at <= end + 0.2 }.map(\.at)
            let longestGap = zip(ticks, ticks.dropFirst()).map { $1 - $0 }.max() ?? .infinity
            #expect(longestGap < 0.6, "longest gap between ticks \(longestGap) s during a replay of \(sentIn) s")
            print("20,000 queued starts sent in \(sentIn) s; longest gap between 0.1 s ticks meanwhile \(longestGap) s")
            run.signal(SIGTERM)
            #expect(run.wait() == 143)
            #expect(run.stderr.contains("20000 changes made meanwhile applied"), "\(run.stderr)")
        }

        @Test("Ctrl-C in the middle of a replay ends the run at once; what was not sent is reported, exit 6")
        func interruptedDuringReplay() throws {
            let flag = Scratch.directory("flag") + "/go"
            let run = try LiveProcess(["--store", server.url, "--state-dir", stateDir, script(flag: flag, count: 20_000)])
            defer { run.signal(SIGKILL) }
            #expect(run.waitForLine { $0 == "ready" } != nil, "\(run.stderr)")
            server.stop()
            FileManager.default.createFile(atPath: flag, contents: nil)
            #expect(run.waitForLine(timeout: 60) { $0 == "queued" } != nil, "\(run.stderr)")
            try server.start()
            let deadline = Date().addingTimeInterval(30)
            while (Int(try server.cli("HLEN", "cdscript:countdowns")) ?? 0) < 1_000 && Date() < deadline {
                Thread.sleep(forTimeInterval: 0.02)
            }
            run.signal(SIGINT)
            #expect(run.wait() == 6, "\(run.stderr)")
            let stored = Int(try server.cli("HLEN", "cdscript:countdowns")) ?? 0
            let report = try #require(run.stderr.split(separator: "\n").first { $0.contains("could not reach") }, "\(run.stderr)")
            let unsent = Int(report.split(separator: " ")[1]) ?? -1
            #expect(stored < 20_001, "the replay was interrupted")
            #expect(stored - 1 + unsent == 20_000, "every change is either stored or reported: \(report)")
        }

        @Test("Ctrl-C with the server still away: the queued changes are reported, exit 6")
        func interruptedWhileAway() throws {
            let flag = Scratch.directory("flag") + "/go"
            let run = try LiveProcess(["--store", server.url, "--state-dir", stateDir, script(flag: flag, count: 2_000)])
            defer { run.signal(SIGKILL) }
            #expect(run.waitForLine { $0 == "ready" } != nil, "\(run.stderr)")
            server.stop()
            FileManager.default.createFile(atPath: flag, contents: nil)
            #expect(run.waitForLine(timeout: 60) { $0 == "queued" } != nil, "\(run.stderr)")
            run.signal(SIGINT)
            #expect(run.wait() == 6, "\(run.stderr)")
            #expect(run.stderr.contains("2000 changes to 2000 countdowns could not reach \(server.url)/0 before the run ended; they are kept in \(stateDir)/redis-pending.sqlite and sent by the next cdscript command that reaches it"), "\(run.stderr)")
            // Kept, not lost: the next command that reaches the server sends them.
            try server.start()
            let listed = try LiveProcess.run(["list", "--store", server.url, "--state-dir", stateDir])
            #expect(listed.status == 0, "\(listed.stderr)")
            #expect(listed.stderr.contains("sent 2000 changes an earlier run kept in"), "\(listed.stderr)")
            #expect(try server.cli("HLEN", "cdscript:countdowns") == "2001")
        }
    }
}
