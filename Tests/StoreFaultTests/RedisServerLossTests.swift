import Foundation
import RedisTestServer
import Testing

extension RedisStoreFaults {
    /// A redis-server without persistence that restarts comes back empty: the
    /// countdowns it held were lost, not cancelled.
    @Suite("A Redis server that comes back empty, end to end", .serialized)
    final class RedisServerLossTests {
        let server: RedisServer

        init() throws { server = try RedisServer() }

        func restartEmpty() throws {
            server.stop()
            for name in try FileManager.default.contentsOfDirectory(atPath: server.directory) where name != "log" {
                try FileManager.default.removeItem(atPath: server.directory + "/" + name)
            }
            try server.start()
        }

        @Test("a running countdown that vanished with its server is reported lost, runs on to its end (finished, not cancelled), is written back; the run exits 6")
        func cameBackEmpty() throws {
            let run = try LiveProcess(["--store", server.url, Scratch.script("""
                countdown.start{ id = "v", seconds = 6, persist = true,
                  on_tick = function(t) print(("tick %.0f"):format(t.remaining)) end,
                  on_done = function(t, why) print("done " .. why) end }
                """)])
            defer { run.signal(SIGKILL) }
            #expect(run.waitForLine { $0.hasPrefix("tick") } != nil, "\(run.stderr)")
            try restartEmpty()
            // Written back with the first reconnection attempt that succeeds (backoff up to 2 s).
            let deadline = Date().addingTimeInterval(5)
            var back = false
            while !back && Date() < deadline {
                back = try server.cli("HEXISTS", "cdscript:countdowns", "v") == "1"
                if !back { Thread.sleep(forTimeInterval: 0.05) }
            }
            #expect(back, "\(run.texts) \(run.stderr)")
            #expect(run.wait(timeout: 15) == 6, "\(run.stderr)")
            #expect(run.texts.filter { $0.hasPrefix("done") } == ["done finished"], "\(run.texts)")
            #expect(run.stderr.contains(#"the store lost countdown "v""#), "\(run.stderr)")
        }
    }
}
