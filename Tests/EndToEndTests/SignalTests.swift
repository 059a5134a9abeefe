import Foundation
import Testing

/// The real binary, started clean (empty signal mask, default dispositions, as
/// from a shell), stdout to a file; the test waits for "ready" there, sends a
/// signal, and measures how long the process takes to end.
private final class Spawned {
    let pid: pid_t
    let outPath: String
    let errPath: String

    init(_ arguments: [String]) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-signal-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        outPath = dir + "/out"
        errPath = dir + "/err"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = [BinaryRunner.binary.path] + arguments
        var cArgs = argv.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) } }
        var pid: pid_t = 0
        let status = withCleanSignalAttributes { posix_spawn(&pid, argv[0], &actions, &$0, &cArgs, environ) }
        guard status == 0 else { throw SpawnFailed() }
        self.pid = pid
    }

    struct SpawnFailed: Error {}

    var stdout: String { (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "" }

    func waitFor(_ text: String, timeout: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if stdout.contains(text) { return true }
            usleep(5000)
        }
        return false
    }

    /// The child's peak resident memory in KB, once `wait` returned: the highest
    /// VmHWM its /proc status showed while it ran. Not rusage's ru_maxrss: a child
    /// made by posix_spawn (vfork) starts with the peak of the test process that
    /// spawned it, which many tests running side by side push past any bound.
    private(set) var maxRSSKilobytes = 0

    /// Waits for the end: (exit code or nil, signal or nil, seconds waited).
    func wait(timeout: Double = 10) -> (code: Int32?, signal: Int32?, seconds: Double) {
        let start = Date()
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            maxRSSKilobytes = max(maxRSSKilobytes, Self.peakResidentKilobytes(of: pid))
            if Date().timeIntervalSince(start) > timeout { kill(pid, SIGKILL) }
            usleep(1000)
        }
        let seconds = Date().timeIntervalSince(start)
        if status & 0x7f == 0 { return ((status >> 8) & 0xff, nil, seconds) }
        return (nil, status & 0x7f, seconds)
    }

    /// VmHWM of a running process, in KB (0 once it has exited).
    private static func peakResidentKilobytes(of pid: pid_t) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return 0 }
        return Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "") ?? 0
    }
}

@Suite("Signals end a run at once (0.3 s at the latest, by the watchdog), whatever the script is doing", .serialized)
struct SignalTests {
    /// The watchdog ends a run 0.3 s after the signal at the latest; on a busy
    /// 2-core machine (a load of 5 to 7 while the suite runs beside builds) the
    /// child and this test's polling are scheduled late by up to a few tenths
    /// (0.65-0.92 s seen). Without the watchdog, these runs would go on until the
    /// 10 s CPU limit, or forever: 2 s still tells.
    static let endBound = 2.0

    /// Busy code in every place a script can run. SIGINT ends each with 130
    /// (128 + SIGINT, as shells expect), whether Lua code was interrupted or the
    /// watchdog had to force the end (C loops, finalizers).
    static let busy: [(String, String, Int32)] = [
        ("main chunk", #"print("ready") while true do end"#, 130),
        ("hook", #"countdown.start{ seconds = 60, every = 0.1, on_tick = function() print("ready") while true do end end }"#, 130),
        ("pcall loop", #"print("ready") while true do pcall(function() while true do end end) end"#, 130),
        ("formatter", #"countdown.formatter("spin", function() print("ready") while true do end end) countdown.start{ id = "x", seconds = 5, on_tick = function(t) countdown.format(t, "spin") end }"#, 130),
        ("on_error", #"countdown.start{ seconds = 5, every = 0.1, on_tick = function() error("x") end, on_error = function() print("ready") while true do end end }"#, 130),
        ("__tostring of an error", #"error(setmetatable({}, { __tostring = function() print("ready") while true do end end }))"#, 130),
        ("coroutine", #"coroutine.wrap(function() print("ready") while true do pcall(function() while true do end end) end end)()"#, 130),
        ("coroutine.resume", #"local co = coroutine.create(function() print("ready") while true do end end) print(coroutine.resume(co)) while true do end"#, 130),
        ("__gc finalizer", #"setmetatable({}, { __gc = function() print("ready") while true do end end }) collectgarbage() collectgarbage()"#, 130),
        ("table.move in C", #"print("ready") table.move({}, 1, math.maxinteger - 1, 2)"#, 130),
        ("string.find backtracking in C", #"print("ready") string.find(string.rep("a", 40000), ".-.-.-.-b")"#, 130),
    ]

    static let cases: [(String, String, Int32, [String])] = busy.flatMap { name, body, code in
        [(name, body, code, []), (name, body, code, ["--budget", "200000000"]), (name, body, code, ["--sandbox"])]
    }

    @Test("SIGINT interrupts busy code everywhere (default limits, a counted budget, --sandbox)", arguments: cases)
    func interrupt(name: String, body: String, code: Int32, options: [String]) throws {
        let path = try BinaryRunner.script(body)
        let run = try Spawned(["run"] + options + [path])
        #expect(run.waitFor("ready"), "\(name): never ready: \(run.stderr)")
        usleep(50_000)
        kill(run.pid, SIGINT)
        let end = run.wait()
        #expect(end.signal == nil && end.code == code, "\(name) \(options): ended \(end), \(run.stderr)")
        #expect(end.seconds < Self.endBound, "\(name) \(options): took \(end.seconds) s")
        #expect(!run.stderr.contains("error in"), "\(name): \(run.stderr)")
    }

    @Test("SIGTERM and SIGHUP: 143 and 129, interrupted or forced", arguments: [(SIGTERM, Int32(143)), (SIGHUP, Int32(129))])
    func otherTerminating(signal: Int32, code: Int32) throws {
        for body in [Self.busy[0].1, Self.busy[9].1] {
            let run = try Spawned(["run", try BinaryRunner.script(body)])
            #expect(run.waitFor("ready"))
            kill(run.pid, signal)
            let end = run.wait()
            #expect(end.code == code, "\(body): \(end)")
            #expect(end.seconds < Self.endBound, "took \(end.seconds) s")
        }
    }

    @Test("plugin setup is interrupted too")
    func pluginSetup() throws {
        let script = try BinaryRunner.script(#"use("spin")"#)
        let dir = URL(fileURLWithPath: script).deletingLastPathComponent().path
        try #"return { setup = function() print("ready") while true do end end }"#.write(toFile: dir + "/spin.lua", atomically: true, encoding: .utf8)
        let run = try Spawned(["run", "--plugin-path", dir, script])
        #expect(run.waitFor("ready"), "\(run.stderr)")
        kill(run.pid, SIGINT)
        let end = run.wait()
        #expect(end.code == 130 && end.seconds < Self.endBound, "\(end) \(run.stderr)")
    }

    @Test("SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGXCPU and SIGVTALRM end the process by the signal at once (no backtracer prompt)",
          arguments: [SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGXCPU, SIGVTALRM])
    func fatalSignals(signal: Int32) throws {
        let run = try Spawned(["run", try BinaryRunner.script(Self.busy[0].1)])
        #expect(run.waitFor("ready"))
        kill(run.pid, signal)
        let end = run.wait()
        #expect(end.signal == signal, "\(end)")
        #expect(end.seconds < Self.endBound, "took \(end.seconds) s")
    }

    @Test("SIGPIPE does not end the run: a write to a closed pipe fails with EPIPE")
    func brokenPipe() throws {
        let run = try Spawned(["run", try BinaryRunner.script("""
            local p = io.popen("true", "w")
            os.execute("sleep 0.1")
            local ok, err = p:write(string.rep("x", 1 << 20))
            p:close()
            print("after the pipe", ok == nil and "failed" or "written")
            """)])
        let end = run.wait()
        #expect(end.code == 0, "\(end) \(run.stderr)")
        #expect(run.stdout.contains("after the pipe\tfailed"), "\(run.stdout)")
    }

    @Test("children (os.execute, io.popen, the exec plugin) start with no signal blocked or ignored")
    func childrenSignalState() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-children-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let run = try Spawned(["run", try BinaryRunner.script("""
            os.execute("grep -E '^Sig(Blk|Ign)' /proc/self/status > \(dir)/execute")
            local p = io.popen("grep -E '^Sig(Blk|Ign)' /proc/self/status > \(dir)/popen") p:close()
            use("exec", { command = { "sh", "-c", "grep -E '^Sig(Blk|Ign)' /proc/self/status > \(dir)/exec" } })
            countdown.start{ seconds = 0.1 }
            """)])
        let end = run.wait()
        #expect(end.code == 0, "\(run.stderr)")
        for name in ["execute", "popen", "exec"] {
            var text = ""
            for _ in 0..<200 where text.isEmpty {
                text = (try? String(contentsOfFile: "\(dir)/\(name)", encoding: .utf8)) ?? ""
                usleep(10_000)
            }
            #expect(text.contains("SigBlk:\t0000000000000000"), "\(name): \(text)")
            // Signals 1-31 (32 and 33 belong to glibc, which no program can set).
            let ignored = text.split(separator: "\n").first { $0.hasPrefix("SigIgn:") }
                .flatMap { UInt64($0.dropFirst(7).trimmingCharacters(in: .whitespaces), radix: 16) }
            #expect(ignored.map { $0 & 0x7FFF_FFFF } == 0, "\(name): \(text)")
        }
    }

    @Test("a finalizer that never returns at exit: ended after 1 s with exit 1, not hung")
    func finalizerAtExit() throws {
        let run = try Spawned(["run", try BinaryRunner.script(#"x = setmetatable({}, { __gc = function() while true do end end }) print("ready")"#)])
        let end = run.wait()
        #expect(end.code == 1, "\(end) \(run.stderr)")
        #expect(end.seconds < 2.5)
        #expect(run.stderr.contains("finalizers ran for more than 1 s"), "\(run.stderr)")
    }

    @Test("a finalizer at exit that allocates without end stays under --memory-limit")
    func finalizerMemory() throws {
        let run = try Spawned(["run", "--memory-limit", "100M", try BinaryRunner.script(
            "x = setmetatable({}, { __gc = function() local t = {} for i = 1, 2e8 do t[i] = i end end })")])
        let end = run.wait()
        #expect(end.code == 0, "\(end) \(run.stderr)")
        // 100 MB for Lua, plus the binary's own and the allocator's slack (90-225 MB
        // peak seen here, depending on the load); it reached 4.2 GB before.
        #expect(run.maxRSSKilobytes < 400_000, "peak \(run.maxRSSKilobytes) KB")
    }

    @Test("a finalizer at exit that calls view.label or starts a persistent countdown gets a Lua error, never a crash")
    func finalizerCallsHost() throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-fin-\(UUID().uuidString)").path
        let run = try Spawned(["run", "--state-dir", state, try BinaryRunner.script("""
            x = setmetatable({}, { __gc = function()
              local ok, err = pcall(view.label, { id = "late", text = "x" })
              print("label:", ok, err)
              ok, err = pcall(countdown.start, { id = "ghost", seconds = 60, persist = true })
              print("start:", ok, err)
            end })
            """)])
        let end = run.wait()
        #expect(end.signal == nil && end.code == 0, "\(end) \(run.stderr)")
        #expect(run.stdout.contains("label:\tfalse") && run.stdout.contains("the run is over"), "\(run.stdout)")
        #expect(run.stdout.contains("start:\tfalse"), "\(run.stdout)")
        let list = try BinaryRunner.run(["list", "--state-dir", state])
        #expect(!list.stdout.contains("ghost"), "\(list.stdout)")
    }

    @Test("--speed: a speed past the clock's bound is refused with exit 64 naming the bound; a high allowed one runs")
    func speedBound() throws {
        let script = try BinaryRunner.script("countdown.start{ seconds = 86400 * 2 }")
        let refused = try BinaryRunner.run(["run", "--speed", "1e13", script], timeout: 5)
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("at most"), "\(refused.stderr)")
        let fast = try BinaryRunner.run(["run", "--speed", "500000", script], timeout: 10)
        #expect(fast.status == 0, "\(fast.stderr)")
        #expect(fast.seconds < 2)
    }
}
