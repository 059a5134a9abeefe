import Foundation
import Testing

/// `--cpu-limit`: a timer on the run thread's CPU-time clock bounds each callback,
/// where no Lua hook reaches too (finalizers, loops in C). Run with a limit of 1 s
/// to stay fast: a callback is stopped after 1 to 2 s of CPU, and a run it cannot
/// stop is ended one fire (1 s of CPU) later.
@Suite("A CPU-time limit per callback (--cpu-limit)", .serialized)
struct CPULimitTests {
    @Test("a looping __gc run by collectgarbage() in a hook ends the run: exit 1, the limit named", arguments: [[String](), ["--budget", "200000000"], ["--sandbox"]])
    func finalizerInHook(options: [String]) throws {
        let script = try BinaryRunner.script(#"""
            countdown.start{ seconds = 60, every = 0.1, on_tick = function()
                setmetatable({}, { __gc = function() while true do end end })
                collectgarbage()
            end }
            """#)
        // The limit is CPU time (2 to 3 s of it end this run), and wall time on a
        // busy machine is anyone's guess: 11.2 s were seen on 2 loaded cores. The
        // message, which only the CPU-time timer writes, is the bound checked; the
        // timeout only keeps a hang from holding the suite.
        let result = try BinaryRunner.run(["run", "--cpu-limit", "1"] + options + [script], timeout: 90)
        #expect(result.status == 1, "\(options): \(result.status) \(result.stderr)")
        #expect(result.stderr.contains("a callback ran for more than 1 s of CPU time (--cpu-limit) and could not be stopped"), "\(result.stderr)")
    }

    @Test("a looping __gc in the main chunk ends the run too")
    func finalizerInMainChunk() throws {
        let script = try BinaryRunner.script(#"setmetatable({}, { __gc = function() while true do end end }) collectgarbage()"#)
        let result = try BinaryRunner.run(["run", "--cpu-limit", "1", script], timeout: 90)
        #expect(result.status == 1, "\(result.status) \(result.stderr)")
        #expect(result.stderr.contains("more than 1 s of CPU time"), "\(result.stderr)")
    }

    static let spins = [
        "while true do pcall(function() while true do end end) end",
        "coroutine.wrap(function() while true do pcall(function() while true do end end) end end)()",
        "local co = coroutine.create(function() while true do end end) local ok, e = coroutine.resume(co) error(e, 0)",
    ]

    @Test("a busy Lua loop (pcall cannot hold it, in a coroutine too) fails its callback; another countdown goes on; exit 1", arguments: spins)
    func busyLoopFailsItsCallback(spin: String) throws {
        let script = try BinaryRunner.script(#"""
            -- The first tick runs inside countdown.start, in the main chunk's callback:
            -- spin in a later one, a callback of its own.
            local ticks = 0
            countdown.start{ id = "busy", seconds = 30, every = 0.1, on_tick = function()
                ticks = ticks + 1
                if ticks ~= 3 then return end
                \#(spin)
            end }
            countdown.start{ id = "other", seconds = 4, every = 0.5, on_done = function() print("other done") end }
            """#)
        // run's default limits: no instruction count, so the CPU-time limit is what stops it.
        let result = try BinaryRunner.run(["run", "--cpu-limit", "1", script], timeout: 90)
        #expect(result.status == 1, "\(result.status) \(result.stdout) \(result.stderr)")
        // Reported as any hook error (on_error "stop"): the countdown stops, the run goes on.
        #expect(result.stderr.contains("error in on_tick of countdown \"busy\""), "\(result.stderr)")
        #expect(result.stderr.contains("CPU time limit exceeded: more than 1 s in one callback (raise it with --cpu-limit)"),
                "\(result.stdout) \(result.stderr)")
        #expect(result.stdout.contains("other done"), "\(result.stdout) \(result.stderr)")
        #expect(!result.stderr.contains("could not be stopped"), "\(result.stderr)")
    }

    @Test("a looping finalizer in on_press with the view open: the run ends, the terminal restored",
          .enabled(if: Tmux.isAvailable, "needs tmux (scripts/setup installs it)"))
    func viewRestored() throws {
        let path = try BinaryRunner.script("""
            view.label{ id = "status", text = "press x" }
            view.button{ id = "spin", label = "Spin", key = "x", on_press = function()
                setmetatable({}, { __gc = function() while true do end end }) collectgarbage()
            end }
            countdown.start{ seconds = 60 }
            """)
        let tmux = try Tmux(["run", "--cpu-limit", "1", path], columns: 40, rows: 8)
        defer { tmux.stop() }
        try tmux.waitForText("press x")
        try tmux.waitUntil("alternate screen") { try tmux.display("#{alternate_on} #{cursor_flag}") == "1 0" }
        try tmux.send("x")
        try tmux.waitUntil("the end of the run", timeout: 60) { tmux.hasEnded }
        #expect(tmux.exitStatus == 1)
        #expect(try tmux.display("#{alternate_on} #{cursor_flag}") == "0 1")
        let screen = try tmux.screen().replacingOccurrences(of: "\n", with: "")  // rows wrap at 40 columns
        #expect(screen.contains("more than 1 s of CPU time"), "\(screen)")
    }

    @Test("an idle run is unaffected, even with a short limit")
    func idleRun() throws {
        let script = try BinaryRunner.script(#"countdown.start{ seconds = 1, on_done = function() print("done") end }"#)
        let result = try BinaryRunner.run(["run", "--cpu-limit", "0.1", script], timeout: 10)
        #expect(result.status == 0, "\(result.status) \(result.stderr)")
        #expect(result.stdout.contains("done"))
        #expect(result.stderr.isEmpty, "\(result.stderr)")
    }

    @Test("bad values are refused with exit 64 and the range", arguments: ["-1", "0.01", "nan", "1e9", "x"])
    func badValues(value: String) throws {
        let result = try BinaryRunner.run(["run", "--cpu-limit", value, try BinaryRunner.script("")])
        #expect(result.status == 64, "\(value): \(result.status) \(result.stderr)")
        #expect(result.stderr.contains("--cpu-limit"), "\(result.stderr)")
    }
}
