import Foundation
import Testing

/// Issue 30: Ctrl-Z while a hook spins used to wait for the CPU limit (about 10 s
/// by default). SIGTSTP now stops the process within 0.5 s wherever it is (Lua
/// code, a loop in C), with the terminal given back first, and `fg` (SIGCONT)
/// lets the hook go on where it was.
@Suite("Ctrl-Z while a hook runs", .serialized,
       .enabled(if: Tmux.isAvailable, "needs tmux (scripts/setup installs it)"))
struct StopWhileHookRunsTests {
    /// A view, then at the second tick (once the view is drawn), `spin` inside on_tick.
    static func script(spin: String) throws -> String {
        try BinaryRunner.script("""
            view.label{ id = "status", text = "waiting" }
            local ticks = 0
            countdown.start{ id = "spin", seconds = 60, every = 0.5, on_tick = function(t)
                ticks = ticks + 1
                if ticks ~= 2 then return end
                \(spin)
                view.set("status", { text = "the hook went on to its end" })
            end }
            """)
    }

    /// The process's state letter and CPU time (user + system, seconds) from /proc.
    static func stat(_ pid: Int32) -> (state: Character, cpu: Double)? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(close, offsetBy: 2)...].split(separator: " ")
        guard fields.count > 12, let state = fields[0].first, let user = Double(fields[11]), let system = Double(fields[12])
        else { return nil }
        return (state, (user + system) / Double(sysconf(Int32(_SC_CLK_TCK))))
    }

    /// Starts `script` in tmux and waits until its hook has spun for a while with the view open.
    static func startSpinning(_ script: String) throws -> (Tmux, Int32) {
        let tmux = try Tmux([script], columns: 50, rows: 6)
        try tmux.waitForText("waiting")
        try tmux.waitUntil("the view open") { try tmux.display("#{alternate_on} #{cursor_flag}") == "1 0" }
        let pid = try #require(try tmux.programPID())
        // Idle until the second tick: CPU time grows from here on only by the spin.
        let idle = try #require(stat(pid)).cpu
        try tmux.waitUntil("the hook spinning") { (stat(pid)?.cpu ?? 0) > idle + 0.4 }
        return (tmux, pid)
    }

    /// Sends SIGTSTP as the terminal's Ctrl-Z does (to the program only: the waiting
    /// shell has no job control) and returns the seconds until the process stopped.
    static func stop(_ pid: Int32, _ tmux: Tmux) throws -> Double {
        let sent = Date()
        kill(pid, SIGTSTP)
        // Polled every millisecond: the figure is reported.
        while stat(pid)?.state != "T" && Date().timeIntervalSince(sent) < 15 { usleep(1000) }
        let latency = Date().timeIntervalSince(sent)
        try #require(stat(pid)?.state == "T", "not stopped \(latency) s after SIGTSTP")
        // The terminal was given back before the stop.
        #expect(try tmux.display("#{alternate_on} #{cursor_flag}") == "0 1")
        return latency
    }

    @Test("Lua code: stopped at once with the terminal back; fg continues the hook to its end and brings the view back; Ctrl-C ends with 130")
    func luaLoop() throws {
        let (tmux, pid) = try Self.startSpinning(try Self.script(spin: """
            local start = os.clock()
            while os.clock() - start < 2.5 do end
            """))
        defer { tmux.stop() }
        let latency = try Self.stop(pid, tmux)
        print("stop latency while Lua code spins: \(String(format: "%.3f", latency)) s")
        // Within 0.5 s on an idle machine; generous for a loaded 2-core one.
        #expect(latency < 1.5, "stopped \(latency) s after SIGTSTP")
        let stoppedAt = try #require(Self.stat(pid)).cpu
        Thread.sleep(forTimeInterval: 0.5)
        #expect(Self.stat(pid)?.state == "T")
        #expect(Self.stat(pid)?.cpu == stoppedAt, "no CPU time while stopped")

        kill(pid, SIGCONT)
        // Not restarted, not interrupted: the hook's spin ends and it goes on.
        try tmux.waitForText("the hook went on to its end", timeout: 20)
        try tmux.waitUntil("the view back") { try tmux.display("#{alternate_on} #{cursor_flag}") == "1 0" }
        #expect(try !tmux.screen().contains("error"))
        #expect((Self.stat(pid)?.cpu ?? 0) >= 2.5)
        kill(pid, SIGINT)
        try tmux.waitUntil("the end of the run") { tmux.hasEnded }
        #expect(tmux.exitStatus == 130)
        #expect(try tmux.display("#{alternate_on} #{cursor_flag}") == "0 1")
        let screen = try tmux.screen()
        #expect(!screen.contains("error"), "\(screen)")
    }

    @Test("an endless Lua loop under the default limits: stopped at once; after fg it spins on; Ctrl-C ends with 130")
    func endlessLuaLoop() throws {
        let (tmux, pid) = try Self.startSpinning(try Self.script(spin: "while true do end"))
        defer { tmux.stop() }
        let latency = try Self.stop(pid, tmux)
        print("stop latency in `while true do end`: \(String(format: "%.3f", latency)) s")
        #expect(latency < 1.5, "stopped \(latency) s after SIGTSTP")
        let stoppedAt = try #require(Self.stat(pid)).cpu

        kill(pid, SIGCONT)
        try tmux.waitUntil("the hook spinning again") { (Self.stat(pid)?.cpu ?? 0) > stoppedAt + 0.3 }
        #expect(Self.stat(pid)?.state == "R")
        kill(pid, SIGINT)
        try tmux.waitUntil("the end of the run") { tmux.hasEnded }
        #expect(tmux.exitStatus == 130)
        #expect(try tmux.display("#{alternate_on} #{cursor_flag}") == "0 1")
        let screen = try tmux.screen()
        #expect(!screen.contains("CPU time limit"), "\(screen)")
    }

    @Test("a loop in C (string.find backtracking), which no hook reaches: stopped by the watchdog after 0.5 s; after fg it runs on")
    func loopInC() throws {
        let (tmux, pid) = try Self.startSpinning(try Self.script(spin: #"string.find(string.rep("a", 40000), ".-.-.-.-b")"#))
        defer { tmux.stop() }
        let latency = try Self.stop(pid, tmux)
        print("stop latency in a loop in C: \(String(format: "%.3f", latency)) s")
        #expect(latency >= 0.45 && latency < 1.5, "stopped \(latency) s after SIGTSTP")
        let stoppedAt = try #require(Self.stat(pid)).cpu

        kill(pid, SIGCONT)
        try tmux.waitUntil("the loop running again") { (Self.stat(pid)?.cpu ?? 0) > stoppedAt + 0.3 }
        // The interruption cannot reach C either: the watchdog ends the run, 130.
        kill(pid, SIGINT)
        try tmux.waitUntil("the end of the run") { tmux.hasEnded }
        #expect(tmux.exitStatus == 130)
        #expect(try tmux.display("#{alternate_on} #{cursor_flag}") == "0 1")
    }

    @Test("what the script printed while the view was open survives a Ctrl-Z and fg taken by the loop, even when the run must be forced to end")
    func capturedOutputAfterStop() throws {
        let path = try BinaryRunner.script(#"""
            view.label{ id = "status", text = "press x" }
            view.button{ id = "spin", label = "Spin", key = "x", on_press = function()
                print("printed while the view was open")
                string.find(string.rep("a", 40000), ".-.-.-.-b")
            end }
            countdown.start{ seconds = 60 }
            """#)
        let tmux = try Tmux([path], columns: 50, rows: 8)
        defer { tmux.stop() }
        try tmux.waitForText("press x")
        try tmux.waitUntil("the view open") { try tmux.display("#{alternate_on} #{cursor_flag}") == "1 0" }
        let pid = try #require(try tmux.programPID())
        // Idle: the loop stops the process itself, and takes the terminal again after fg.
        kill(pid, SIGTSTP)
        try tmux.waitUntil("the process stopped") { Self.stat(pid)?.state == "T" }
        kill(pid, SIGCONT)
        try tmux.waitUntil("the view back") { try tmux.display("#{alternate_on} #{cursor_flag}") == "1 0" }
        // A loop in C that SIGINT cannot interrupt: the watchdog restores and ends the run.
        try tmux.send("x")
        let idle = try #require(Self.stat(pid)).cpu
        try tmux.waitUntil("the loop in C running") { (Self.stat(pid)?.cpu ?? 0) > idle + 0.2 }
        kill(pid, SIGINT)
        try tmux.waitUntil("the end of the run") { tmux.hasEnded }
        #expect(tmux.exitStatus == 130)
        #expect(try tmux.display("#{alternate_on} #{cursor_flag}") == "0 1")
        let screen = try tmux.screen()
        #expect(screen.contains("printed while the view was open"), "\(screen)")
        #expect(screen.contains("the script did not stop in time"), "forced: \(screen)")
    }
}
