import Foundation
import RedisTestServer
import Testing

extension StoreFaults {
    /// Issue 50: a read changes nothing, so it wakes no one. A status bar polls
    /// `cdscript status` every second (tmux's status-right); every `watch --bar`
    /// of the same store must sleep through those reads, and still wake at once
    /// for a write. Wake-ups are the bar's voluntary context switches (every thread),
    /// which an idle process in `poll` does not make.
    @Suite("Reads of a store wake none of its watchers", .serialized)
    final class ReadsWakeNobodyTests {
        let server: RedisServer

        init() throws { server = try RedisServer() }

        /// A bar showing the paused "held" on `store` sleeps through 10 `status`
        /// and 10 `list` (and the second that re-checks would take), then shows an
        /// append within a second of it.
        func idleBarSleepsThroughReads(_ store: [String]) throws {
            let seed = try LiveProcess.run(store + [Scratch.script(#"countdown.start{ id = "held", seconds = 90, persist = true }:pause(); os.exit(0)"#)])
            #expect(seed.status == 0, "\(seed.stderr)")
            let bar = try LiveProcess(["watch", "--bar", "polybar"] + store)
            defer { bar.signal(SIGKILL); bar.wait() }
            #expect(bar.waitForLine { $0 == "⏸ held 1:30" } != nil, "\(bar.texts) \(bar.stderr)")
            IdleStateFolderTests.settle(bar.pid)
            Thread.sleep(forTimeInterval: 0.7)
            let before = StatusBarTests.contextSwitches(bar.pid)
            for _ in 0..<10 {
                let status = try LiveProcess.run(["status"] + store)
                #expect(status.lines == ["⏸ held 1:30"], "\(status.stderr)")
                let list = try LiveProcess.run(["list"] + store)
                #expect(list.status == 0, "\(list.stderr)")
            }
            // Re-checks after an event would come within 0.6 s.
            Thread.sleep(forTimeInterval: 1)
            let after = StatusBarTests.contextSwitches(bar.pid)
            #expect(before > 0)
            #expect(after - before == 0, "\(after - before) wake-ups of an idle bar over 20 reads")
            #expect(bar.texts == ["⏸ held 1:30"])
            let count = bar.lines.count
            let appended = try Live.command(["append", "held", "10"] + store)
            #expect(appended.status == 0, "\(appended.stderr)")
            let line = try #require(Live.next(bar, after: count, timeout: 5) { $0 == "⏸ held 1:40" }, "\(bar.texts)")
            #expect(line.at.timeIntervalSince(appended.ended) < 1, "a write is shown within a second")
        }

        @Test("SQLite: an idle watch --bar makes no wake-up while status and list read the store, and shows a write at once")
        func sqlite() throws {
            let dir = Scratch.directory("reads-wake-nobody")
            defer { try? FileManager.default.removeItem(atPath: dir) }
            try idleBarSleepsThroughReads(["--state-dir", dir])
        }

        @Test("Redis: an idle watch --bar makes no wake-up while status and list read the server (reads publish nothing), and shows a write at once")
        func redis() throws {
            let dir = Scratch.directory("reads-wake-nobody-redis")
            defer { try? FileManager.default.removeItem(atPath: dir) }
            try idleBarSleepsThroughReads(["--store", server.url, "--state-dir", dir])
        }
    }
}
