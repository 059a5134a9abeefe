import Foundation
import RedisTestServer
import Testing

/// Issue 50's status-bar check: the documented tmux line (docs/status-bar.md:
/// `status-interval 1` and `#(cdscript status --for tmux ...)` in status-right),
/// in a real tmux with a client attached (tmux runs it only then), polls the
/// store every second while `watch --bar` shows the same store in the pane. A
/// read changes nothing, so the bar sleeps through every poll: its voluntary
/// context switches (every thread, /proc/PID/task/*/status) stay at 0, where
/// reads that woke it cost 6-7 each (60-70 over 10 s).
@Suite("The documented tmux status line beside watch --bar wakes the bar never",
       .enabled(if: Tmux.isAvailable, "needs tmux (scripts/setup installs it)"), .serialized)
struct TmuxStatusBesideBarTests {
    /// Voluntary context switches of every thread of `pid` so far.
    static func wakeUps(_ pid: Int32) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.reduce(0) { sum, task in
            let status = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8)) ?? ""
            let line = status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") }
            return sum + (line.flatMap { Int($0.split(separator: "\t").last ?? "") } ?? 0)
        }
    }

    /// Seeds the paused "held" on `store`, runs `watch --bar polybar` in a tmux pane
    /// and tmux's status-right polling `status` each second (each poll also leaves a
    /// line in a file, to count them), and counts the bar's wake-ups over 10 s.
    func barSleepsThroughPolls(_ store: [String], dir: String) throws {
        let seed = try BinaryRunner.run(store + [try BinaryRunner.script(#"countdown.start{ id = "held", seconds = 90, persist = true }:pause(); os.exit(0)"#)])
        #expect(seed.status == 0, "\(seed.stderr)")
        let bar = try Tmux(["watch", "--bar", "polybar"] + store, columns: 80, rows: 6)
        defer { bar.stop() }
        try bar.waitForText("⏸ held 1:30")
        // Beside the state folder, not in it: a watcher of SQLite follows its folder.
        let polls = dir + "-polls"
        defer { try? FileManager.default.removeItem(atPath: polls) }
        let status = ([BinaryRunner.binary.path, "status", "--for", "tmux"] + store + ["held"]).map { "'\($0)'" }.joined(separator: " ")
        try bar.command("set", "-g", "status", "on")
        try bar.command("set", "-g", "status-interval", "1")
        try bar.command("set", "-g", "status-right", "#(echo poll >> '\(polls)'; \(status))")
        let client = try AttachedTmuxClient(bar)
        defer { client.stop() }
        try bar.waitUntil("the paused countdown in the attached client's status-right", timeout: 20) {
            client.statusLine().contains("held 1:30")
        }
        let pid = try #require(try bar.programPID())
        // The attach's resize and first draw are over before counting starts.
        Thread.sleep(forTimeInterval: 1.5)
        func pollCount() -> Int { ((try? String(contentsOfFile: polls, encoding: .utf8)) ?? "").split(separator: "\n").count }
        let (before, pollsBefore) = (Self.wakeUps(pid), pollCount())
        Thread.sleep(forTimeInterval: 10)
        let (after, pollsAfter) = (Self.wakeUps(pid), pollCount())
        #expect(before > 0, "the bar's switches are read")
        // tmux starts a job only when the last one has ended: a busy machine's
        // slow `status` runs fewer than 10. Three still made 18-21 wake-ups before.
        #expect(pollsAfter - pollsBefore >= 3, "tmux ran status \(pollsAfter - pollsBefore) times in 10 s")
        // Generous for a busy machine; reads that woke the bar made 60-70 here.
        #expect(after - before <= 2, "\(after - before) wake-ups of an idle bar over \(pollsAfter - pollsBefore) reads by tmux's status line")
        #expect(try bar.screen().contains("⏸ held 1:30"), "the bar still shows the countdown")
    }

    @Test("SQLite: tmux's status line reads the store every second for 10 s and the idle bar in the pane never wakes")
    func sqlite() throws {
        let dir = try StatusBarTerminalTests.scratch("tmux-beside-bar")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try barSleepsThroughPolls(["--state-dir", dir], dir: dir)
    }

    @Test("Redis: tmux's status line reads the server every second for 10 s and the idle bar in the pane never wakes")
    func redis() throws {
        let server = try RedisServer()
        defer { server.stop() }
        let dir = try StatusBarTerminalTests.scratch("tmux-beside-bar-redis")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try barSleepsThroughPolls(["--store", server.url, "--state-dir", dir], dir: dir)
    }
}
