import ArgumentParser
import CountdownCore
import SQLiteStore
import EventLoop
import FoundationEssentials
import LuaHost
import TerminalView
#if canImport(Glibc)
import Glibc
#endif
import StoreViews

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

    @OptionGroup var serveOptions: ViewServeOptions

    @Flag(help: "Count the lines of the script's files that run: luacov.stats.out and lcov.info in the current folder, a summary on stderr.")
    var coverage = false

    @Option(name: .customShort("e"), parsing: .singleValue, help: ArgumentHelp("Run the Lua STATEMENT before the script, as `lua5.4 -e` does (repeatable).", valueName: "STATEMENT"))
    var statements: [String] = []

    @Flag(help: "Reload the script when it, or a module or plugin it required, is saved: countdowns keep running by id (see docs/command-line.md, \"A script reloaded on save\").")
    var watch = false

    @Argument(help: "The Lua script to run (- reads it from standard input; a pipe or a FIFO is read as a file).", completion: .file(extensions: ["lua"]))
    var script: String

    @Argument(parsing: .captureForPassthrough, help: "Arguments for the script, as `arg` and `...`.", completion: .file())
    var scriptArguments: [String] = []

    func validate() throws {
        try Self.validate(speed: speed)
        if watch && coverage { throw ValidationError("--watch and --coverage cannot go together: coverage counts one version of the script") }
        if watch && script == "-" { throw ValidationError("--watch reloads a script file when it is saved; standard input (-) is read once") }
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
        try Self.run(storeOptions: storeOptions, hardening: hardening, speed: speed, view: viewOptions, serve: serveOptions,
                     coverage: coverage, watching: watch ? (script, scriptArguments) : nil) { host in
            // `arg` as lua5.4 makes it, with the command line before the script at negative indices.
            host.setArgTable(script: script, arguments: scriptArguments, interpreter: InterpreterArguments.beforeScript(scriptArguments: scriptArguments))
            for statement in statements {
                if let failure = host.runScript(source: Data(statement.utf8), chunkName: "=(command line)", settingArg: false) { return failure }
            }
            return host.runScript(atPath: script, arguments: scriptArguments, settingArg: false)
        }
    }

    /// Runs what `load` loads into the host (the script file, or a built-in
    /// script such as `timer`) until the run ends. A sequence of steps, each an
    /// idea of its own: a feature that reaches every run adds a step here.
    static func run(storeOptions: StoreOptions, hardening: HardeningOptions, speed: Double?, view viewOptions: ViewOptions,
                    serve serveOptions: ViewServeOptions? = nil, coverage: Bool = false, watching: (path: String, arguments: [String])? = nil,
                    load: (LuaHost) -> ScriptFailure?) throws {
        LuaHost.lineBufferStandardOutput()
        OutputContract.endRunOnFailure()
        let clock = try Self.clock(speed: speed)
        let scheduler = Scheduler(clock: clock)
        let host = LuaHost(scheduler: scheduler, limits: hardening.limits)
        let live = LiveHost(host)
        let coverageRun = try RunCoverage(enabled: coverage, host: host)
        let store = RunStore(options: storeOptions, hardening: hardening, speed: speed)
        // Every host of the run alike: the first, and each reloaded version (--watch).
        let configure = { (host: LuaHost) in
            host.plugins.path = hardening.pluginDirectories
            store.configure(host)
        }
        configure(host)
        RunInterruption.installSignalActions()
        let loop = try MainLoop.forCommand(scheduler: scheduler)
        RunInterruption.startCPULimit(seconds: hardening.cpuLimit)
        if let scaled = clock as? ScaledClock {
            loop.realInstant = { scaled.baseInstant($0) }
        }
        store.follow(on: loop, live: live)
        // --serve: the page shows the view too; without a terminal it is the only view.
        var serving: ViewServing?
        if let serveOptions, let address = serveOptions.serve {
            serving = try ViewServing(options: serveOptions, address: address, stateDir: storeOptions.stateDir)
        }
        let browserOnly = serving != nil && !TerminalSession.isTerminal(STDOUT_FILENO)
        let view = ViewRuntime(options: viewOptions, host: host, loop: loop, browserOnly: browserOnly)
        serving?.attach(to: view, loop: loop)
        loop.flushStandardOutputAfterEachPass()
        defer {
            Self.closeState(of: live.host)
            view.finish()
            serving?.stop()
        }
        let run = ScriptRun(live: live, loop: loop, view: view, store: store, coverage: coverageRun)
        if let ending = run.load(load) { return try RunExit(ending).end() }
        let reloader = try watching.map { script in
            try ScriptReloader.forRun(path: script.path, arguments: script.arguments, live: live, loop: loop, view: view) { scheduler in
                let next = LuaHost(scheduler: scheduler, limits: hardening.limits)
                configure(next)
                return next
            }
        }
        try RunExit(run.runLoop(reloader: reloader)).end()
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

    /// Ends a command that a terminating signal ended, as a run ends (RunExit):
    /// 128 + the signal as shells expect, and SIGPIPE for output that could not
    /// be written (OutputContract): 141 or 74.
    static func exit(afterSignal signal: Int32) throws {
        try RunExit(RunEnding(signal: signal, output: OutputContract.failure())).end()
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
public func printError(_ message: String) {
    StandardError.line(message)
}
