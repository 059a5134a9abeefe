import ArgumentParser
import CountdownCore
import SQLiteStore
import EventLoop
import Foundation
import LuaHost
import TerminalView

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a countdown script until no countdown is active, or until its view is closed."
    )

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var hardening: HardeningOptions

    @Option(parsing: .unconditional, help: ArgumentHelp("Let time flow N times faster (a demo of a 60 s countdown in 1 s: --speed 60).", valueName: "N"))
    var speed: Double?

    @OptionGroup var viewOptions: ViewOptions

    @Flag(help: "Count the lines of the script's files that run: luacov.stats.out and lcov.info in the current folder, a summary on stderr.")
    var coverage = false

    @Option(name: .customShort("e"), parsing: .singleValue, help: ArgumentHelp("Run the Lua STATEMENT before the script, as `lua5.4 -e` does (repeatable).", valueName: "STATEMENT"))
    var statements: [String] = []

    @Flag(help: "Reload the script when it, or a module or plugin it required, is saved: countdowns keep running by id (see docs/command-line.md, \"A script reloaded on save\").")
    var watch = false

    @Argument(help: "The Lua script to run.", completion: .file(extensions: ["lua"]))
    var script: String

    @Argument(parsing: .captureForPassthrough, help: "Arguments for the script, as `arg` and `...`.", completion: .file())
    var scriptArguments: [String] = []

    func validate() throws {
        try Self.validate(speed: speed)
        if watch && coverage { throw ValidationError("--watch and --coverage cannot go together: coverage counts one version of the script") }
    }

    /// `--speed`, as `run` and `timer` take it.
    static func validate(speed: Double?) throws {
        if let speed, !(speed.isFinite && speed > 0) {
            let why = speed.isFinite && speed <= 0 ? " (time cannot stand still or run backwards)" : ""
            throw ValidationError("--speed must be a finite number greater than 0\(why), got \(TimerCommand.format(speed))")
        }
    }

    func run() throws {
        if let hint = CommandHints.mistypedCommand(script: script) {
            printError(hint)
            throw ExitCode(ExitStatus.usage.rawValue)
        }
        try Self.run(storeOptions: storeOptions, hardening: hardening, speed: speed, view: viewOptions, coverage: coverage,
                     watching: watch ? (script, scriptArguments) : nil) { host in
            // `arg` as lua5.4 makes it, with the command line before the script at negative indices.
            host.setArgTable(script: script, arguments: scriptArguments, interpreter: InterpreterArguments.beforeScript(scriptArguments: scriptArguments))
            for statement in statements {
                if let failure = host.runScript(source: Data(statement.utf8), chunkName: "=(command line)", settingArg: false) { return failure }
            }
            return host.runScript(atPath: script, arguments: scriptArguments, settingArg: false)
        }
    }

    /// Runs what `load` loads into the host (the script file, or a built-in
    /// script such as `timer`) until the run ends.
    static func run(storeOptions: StoreOptions, hardening: HardeningOptions, speed: Double?, view viewOptions: ViewOptions,
                    coverage: Bool = false, watching: (path: String, arguments: [String])? = nil,
                    load: (LuaHost) -> ScriptFailure?) throws {
        LuaHost.lineBufferStandardOutput()
        OutputContract.endRunOnFailure()
        let clock = try Self.clock(speed: speed)
        let scheduler = Scheduler(clock: clock)
        let host = LuaHost(scheduler: scheduler, limits: hardening.limits)
        let live = LiveHost(host)
        let coverageRun = try RunCoverage(enabled: coverage, host: host)
        // Fast-forwarded time is not real time: a --speed run keeps its persistent
        // countdowns in memory, so a demo never leaves scaled deadlines in the store.
        // So does a sandboxed run (unless --allow-store): the store holds everyone's
        // countdowns, and no script from elsewhere may read, change or fill it.
        let shared: SharedStore?
        var storeUnusable = false
        if speed == nil, !hardening.opensStore, storeOptions.stateDir != nil || storeOptions.store != nil {
            printError("cdscript: --sandbox keeps persistent countdowns in memory; add --allow-store to use the store")
        }
        do {
            shared = speed == nil && hardening.opensStore ? try storeOptions.openShared() : nil
        } catch {
            printError("cdscript: \(error); persistent countdowns run on without the store")
            shared = nil
            storeUnusable = true
        }
        let memoryStore = InMemoryCountdownStore()
        // Every host of the run alike: the first, and each reloaded version (--watch).
        let configure = { (host: LuaHost) in
            host.plugins.path = hardening.pluginDirectories
            host.store.persistence = shared?.persistence ?? memoryStore
            // Countdowns kept in memory (no store) are on this machine's boot clock.
            host.store.bootID = shared == nil ? BootID.current() : shared?.bootID
            if let tolerance = shared?.externalChangeTolerance { host.store.externalChangeTolerance = tolerance }
        }
        configure(host)
        // Signals interrupt running Lua code, and whatever path ends the process
        // gives the terminal back first (see docs/hardening.md, "Guarantees").
        MainLoop.setSignalActions(interrupt: ScriptInterruption.interruptFromSignal, restore: TerminalSession.restoreFromSignal)
        // Ctrl-Z stops the process within 0.5 s even while a hook runs; after `fg`
        // the hook goes on where it was.
        MainLoop.setStopActions(pause: ScriptInterruption.pauseFromSignal, suspend: TerminalSession.suspendFromSignal)
        let loop = try MainLoop.forCommand(scheduler: scheduler)
        // The CPU-time limit per callback reaches what no hook does (finalizers,
        // loops in C): a timer on this thread's CPU clock, silent while it sleeps.
        if hardening.cpuLimit > 0 {
            let period = ScriptInterruption.configureCPULimit(seconds: hardening.cpuLimit)
            let message = "cdscript: a callback ran for more than \(Self.seconds(hardening.cpuLimit)) s of CPU time (--cpu-limit) and could not be stopped (a finalizer or a loop in C); the run was ended\n"
            do {
                try MainLoop.startCPUTimer(periodNanoseconds: period, check: ScriptInterruption.cpuLimitCheck,
                                           code: ExitStatus.hookError.rawValue, message: message)
            } catch {
                printError("cdscript: \(error); callbacks run without a CPU-time limit")
            }
        }
        if let scaled = clock as? ScaledClock {
            loop.realInstant = { scaled.baseInstant($0) }
        }
        shared?.chargeHeldChanges { [weak live] in live?.host.vm.chargeMemory($0) ?? true }
        // Changes other processes make to the countdowns this run holds arrive
        // through the store's feed, in the loop's one poll (StoreFollowing.swift).
        if let shared {
            do {
                loop.follow(try shared.changeFeed(timers: loop)) { [unowned live] changes in live.host.store.applyChanges(changes) }
            } catch {
                printError("cdscript: \(error); changes made elsewhere reach this run only when it reads the store")
            }
        }
        let view = ViewRuntime(options: viewOptions, host: host, loop: loop)
        // What the script wrote with io.write (stdio's, not ours): a failure ends
        // the run at the end of the pass that made it.
        let render = loop.afterPass
        loop.afterPass = {
            render()
            StandardOutput.flush()
        }
        defer {
            Self.closeState(of: live.host)
            view.finish()
        }
        let failure = load(host)
        if let signal = MainLoop.terminatingSignal {
            // Interrupted while the main chunk ran: end as for a signal in the loop.
            Self.closeState(of: host)
            view.finish()
            // What could not reach the store is reported (and kept) on every path.
            if let shared, !shared.finishRun(withinMilliseconds: 100) { throw ExitCode(ExitStatus.storeError.rawValue) }
            try Self.exit(afterSignal: signal)
            return
        }
        if let failure {
            let counted = coverageRun?.collect()
            view.finish()
            _ = shared?.finishRun(withinMilliseconds: 2_000)
            if let counted { try coverageRun?.write(counted) }
            switch failure.kind {
            case .unreadable:
                printError("cdscript: \(failure.message)")
                throw ExitCode(ExitStatus.unreadableScript.rawValue)
            case .syntax:
                printError(failure.message)
                throw ExitCode(ExitStatus.syntaxError.rawValue)
            case .runtime:
                printError("cdscript: error: \(VisibleText.escapedKeepingLayout(failure.message))")
                throw ExitCode(ExitStatus.scriptError.rawValue)
            }
        }
        let reloader = try watching.map { script in
            do {
                return try ScriptReloader(path: script.path, arguments: script.arguments, live: live, loop: loop, view: view,
                                          makeHost: { scheduler in
                                              let next = LuaHost(scheduler: scheduler, limits: hardening.limits)
                                              configure(next)
                                              return next
                                          }, close: { Self.closeState(of: $0) })
            } catch {
                printError("cdscript: --watch: \(error)")
                throw ExitCode(ExitStatus.systemError.rawValue)
            }
        }
        let outcome = loop.run()
        // Countdowns the user left running with `q`: counted before the state closes.
        let quitEarly = view.controller.quitKey != nil && loop.scheduler.activeCount > 0
        let counted = coverageRun?.collect()
        withExtendedLifetime(reloader) {}
        Self.closeState(of: live.host)
        view.finish()
        // Bounded: after a signal the watchdog ends the process 0.3 s after it.
        // First: nothing that may throw comes between the run and its store.
        let budget = outcome == .finished || outcome == .stopped ? 2_000 : 100
        let changesLost = shared.map { !$0.finishRun(withinMilliseconds: budget) } ?? false
        if let counted { try coverageRun?.write(counted) }
        // Stored countdowns lost or changes not sent outweigh how the run ended:
        // 6 even after Ctrl-C, so that a script around it can tell.
        if changesLost { throw ExitCode(ExitStatus.storeError.rawValue) }
        if case .signal(let signal) = outcome { try Self.exit(afterSignal: signal) }
        try OutputContract.check()
        if view.controller.quitKey == "ctrl-c" { throw ExitCode(ExitStatus.interrupted.rawValue) }
        if quitEarly { throw ExitCode(ExitStatus.quitEarly.rawValue) }
        if let error = live.host.plugins.spawnFailure {
            throw ExitCode(error == ENOENT ? ExitStatus.commandNotFound.rawValue : ExitStatus.commandNotExecutable.rawValue)
        }
        if live.hookErrorCount > 0 {
            throw ExitCode(ExitStatus.hookError.rawValue)
        }
        if live.host.store.errorCount > 0 || storeUnusable {
            throw ExitCode(ExitStatus.storeError.rawValue)
        }
    }
}

extension RunCommand {
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

    /// The exit status for a run ended by a terminating signal, 128 + the signal
    /// as shells expect: Ctrl-C 130, SIGTERM 143, SIGHUP 129 (the watchdog exits
    /// with the same codes when the run had to be forced). SIGPIPE stands for
    /// output that could not be written (OutputContract): 141 or 74.
    static func exit(afterSignal signal: Int32) throws {
        switch signal {
        case SIGINT: throw ExitCode(ExitStatus.interrupted.rawValue)
        case SIGTERM: throw ExitCode(ExitStatus.terminated.rawValue)
        case SIGHUP: throw ExitCode(ExitStatus.hangup.rawValue)
        case SIGPIPE: throw OutputContract.failureExit() ?? ExitCode(ExitStatus.closedPipe.rawValue)
        default: throw ExitCode(128 + signal)
        }
    }

    /// 10 -> "10", 0.5 -> "0.5".
    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int64(value)) : String(value)
    }

    /// The real clock, or one running `speed` times faster on top of it.
    static func clock(speed: Double?) throws -> TimeSource {
        guard let speed else { return BootClock() }
        do {
            return try ScaledClock(base: BootClock(), speed: speed)
        } catch {
            throw ValidationError("--speed: \(error)")
        }
    }
}

/// One line on stderr. Never traps: stderr may be a closed pipe or a full disk
/// too, and then there is nobody to tell.
func printError(_ message: String) {
    StandardError.line(message)
}
