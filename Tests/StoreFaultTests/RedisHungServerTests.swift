import Foundation
import RedisTestServer
import Testing

extension RedisStoreFaults {
    /// A Redis server that stops answering (a paused VM, a network partition:
    /// here SIGSTOP) while a run changes a stored countdown: nothing queued is
    /// lost, whatever ends the run, and the store is never blamed on the script.
    @Suite("A Redis server that hangs, end to end: queued changes kept on disk", .serialized)
    final class RedisHungServerTests {
        let server: RedisServer
        let stateDir = Scratch.directory("hung")

        init() throws { server = try RedisServer() }
        deinit { server.signal(SIGCONT) }

        /// Appends a second to "h" every 0.1 s and says so after each append.
        var script: String {
            Scratch.script("""
                local h = countdown.start{ id = "h", seconds = 1000, persist = true }
                countdown.start{ seconds = 600, every = 0.1, on_tick = function()
                  h:append(1)
                  print("appended")
                end }
                """)
        }

        /// The stored total of "h", in whole seconds, read straight from the server.
        func storedTotal() throws -> Int64? {
            let record = try server.cli("HGET", "cdscript:countdowns", "h")
            let fields = record.split(separator: "|", omittingEmptySubsequences: false)
            guard fields.count == 8, let total = Int64(fields[6]) else { return nil }
            return total / 1_000_000_000
        }

        func list() throws -> (status: Int32, lines: [String], stderr: String) {
            try LiveProcess.run(["list", "--store", server.url, "--state-dir", stateDir])
        }

        @Test("SIGTERM while the server hangs ends the run at once (not blamed on the script), says where the changes are kept, and the next `list` sends them first: every append counted once")
        func signalDuringHang() throws {
            let run = try LiveProcess(["run", "--store", server.url, "--state-dir", stateDir, script])
            defer { run.signal(SIGKILL) }
            #expect(run.waitForLine { $0 == "appended" } != nil, "\(run.stderr)")
            server.signal(SIGSTOP)
            // Long enough for a command to wait on the hung server and for appends to queue.
            let hungAt = run.texts.count
            _ = run.waitForLine(timeout: 10) { _ in run.texts.count >= hungAt + 8 }
            let signalled = Date()
            run.signal(SIGTERM)
            let status = run.wait(timeout: 10)
            let took = Date().timeIntervalSince(signalled)
            let appended = Int64(run.texts.filter { $0 == "appended" }.count)
            // 6: changes not on the server outweigh how the run ended (docs/command-line.md, exit codes).
            #expect(status == 6, "\(run.stderr)")
            #expect(!run.stderr.contains("did not stop in time"), "\(run.stderr)")
            #expect(run.stderr.contains("kept in \(stateDir)/redis-pending.sqlite"), "\(run.stderr)")
            // The signal's grace is 0.3 s; a busy machine adds its scheduling delay.
            #expect(took < 2.5, "ended \(took) s after SIGTERM")
            print("hung server: SIGTERM ended the run in \(String(format: "%.3f", took)) s with \(appended) appends made")
            server.signal(SIGCONT)
            let listed = try list()
            #expect(listed.status == 0, "\(listed.stderr)")
            #expect(listed.stderr.contains("an earlier run kept in"), "\(listed.stderr)")
            // An append whose print did not happen before the signal may be stored too.
            let total = try #require(try storedTotal())
            #expect(total == 1000 + appended || total == 1000 + appended + 1, "stored \(total), appended \(appended)")
            let again = try list()
            #expect(!again.stderr.contains("earlier run"), "sent once, not twice: \(again.stderr)")
            #expect(try storedTotal() == total)
        }

        @Test("kill -9 during an outage: the changes queued so far are on disk, and the next command that reaches the server sends them")
        func killedDuringOutage() throws {
            let run = try LiveProcess(["run", "--store", server.url, "--state-dir", stateDir, script])
            defer { run.signal(SIGKILL) }
            #expect(run.waitForLine { $0 == "appended" } != nil, "\(run.stderr)")
            server.stop()
            let downAt = run.texts.count
            _ = run.waitForLine(timeout: 10) { _ in run.texts.count >= downAt + 10 }
            run.signal(SIGKILL)
            _ = run.wait(timeout: 10)
            let appended = Int64(run.texts.filter { $0 == "appended" }.count)
            try server.start()
            let listed = try list()
            #expect(listed.status == 0, "\(listed.stderr)")
            let total = try #require(try storedTotal())
            #expect(total == 1000 + appended || total == 1000 + appended + 1, "stored \(total), appended \(appended)")
        }
    }
}
