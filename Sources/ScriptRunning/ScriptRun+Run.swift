#if canImport(Glibc)
import Glibc
#endif
import CommandEnding
import CountdownCore
import EventLoop
import FoundationEssentials
import LuaHost
import TerminalView

extension ScriptRun {
    /// Runs what `load` loads into the host (the script file, or a built-in
    /// script such as `timer`) until the run ends: returns when it finished,
    /// else throws the exit it ends with (`RunExit`), having said why on stderr.
    /// A sequence of steps, each an idea of its own: a feature that reaches every
    /// run adds a step here.
    public static func run(_ settings: RunSettings, load: (LuaHost) -> ScriptFailure?) throws {
        let hardening = settings.hardening
        LuaHost.lineBufferStandardOutput()
        LuaHost.printThroughStandardOutput()
        OutputContract.endRunOnFailure()
        let clock = try Self.clock(speed: settings.speed)
        let scheduler = Scheduler(clock: clock)
        let host = LuaHost(scheduler: scheduler, limits: hardening.limits)
        let live = LiveHost(host)
        let coverageRun = try RunCoverage(enabled: settings.coverage, host: host)
        let store = RunStore(settings: settings.store, hardening: hardening, speed: settings.speed)
        // Every host of the run alike: the first, and each reloaded version (--watch).
        let configure = { (host: LuaHost) in
            host.plugins.path = hardening.pluginDirectories
            store.configure(host)
        }
        configure(host)
        RunInterruption.installSignalActions()
        let loop = try MainLoop.forRun(scheduler: scheduler)
        RunInterruption.startCPULimit(seconds: hardening.cpuLimit)
        if let scaled = clock as? ScaledClock {
            loop.realInstant = { scaled.baseInstant($0) }
        }
        store.follow(on: loop, live: live)
        // --serve: the page shows the view too; without a terminal it is the only view.
        var serving: ViewServing?
        if let serve = settings.serve {
            serving = try ViewServing(serve)
        }
        let browserOnly = serving != nil && !TerminalSession.isTerminal(STDOUT_FILENO)
        let view = ViewRuntime(options: settings.view, host: host, loop: loop, browserOnly: browserOnly)
        serving?.attach(to: view, loop: loop)
        loop.flushStandardOutputAfterEachPass()
        defer {
            Self.closeState(of: live.host)
            view.finish()
            serving?.stop()
        }
        let run = ScriptRun(live: live, loop: loop, view: view, store: store, coverage: coverageRun)
        if let ending = run.load(load) { return try RunExit(ending).end() }
        let reloader = try settings.watching.map { script in
            try ScriptReloader.forRun(path: script.path, arguments: script.arguments, live: live, loop: loop, view: view) { scheduler in
                let next = LuaHost(scheduler: scheduler, limits: hardening.limits)
                configure(next)
                return next
            }
        }
        try RunExit(run.runLoop(reloader: reloader)).end()
    }

    /// How long the script's finalizers may run at exit (Lua runs them with hooks
    /// off: no budget, no interruption reaches them).
    static let finalizerDeadlineMilliseconds: Int32 = 1000

    /// Closes the Lua state, running the script's finalizers, under the watchdog:
    /// past `finalizerDeadlineMilliseconds` the terminal is restored and the
    /// process ends with exit 1. Idempotent.
    static func closeState(of host: LuaHost) {
        guard !host.vm.isClosed else { return }
        MainLoop.armWatchdog(milliseconds: finalizerDeadlineMilliseconds, code: ExitStatus.hookError.rawValue,
                             message: "cdscript: the script's finalizers ran for more than 1 s at exit; the run was ended\n")
        host.closeState()
        MainLoop.disarmWatchdog()
    }

    /// 10 -> "10", 0.5 -> "0.5".
    public static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int64(value)) : String(value)
    }

    /// The real clock, or one running `speed` times faster on top of it; a speed
    /// the scaled clock refuses is bad usage.
    static func clock(speed: Double?) throws(UsageError) -> TimeSource {
        guard let speed else { return BootClock() }
        do {
            return try ScaledClock(base: BootClock(), speed: speed)
        } catch {
            throw UsageError("--speed: \(error)")
        }
    }
}
