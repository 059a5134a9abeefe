import ArgumentParser
import CommandEnding
import CountdownCore
import FoundationEssentials
import LuaHost
import ScriptRunning
import TerminalView
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
        var settings = RunSettings(options: storeOptions, hardening: hardening, speed: speed, view: viewOptions, serve: serveOptions)
        settings.coverage = coverage
        if watch { settings.watching = WatchedScript(path: script, arguments: scriptArguments) }
        try exitingAsCommand {
            try ScriptRun.run(settings) { host in
                // `arg` as lua5.4 makes it, with the command line before the script at negative indices.
                host.setArgTable(script: script, arguments: scriptArguments, interpreter: InterpreterArguments.beforeScript(scriptArguments: scriptArguments))
                for statement in statements {
                    if let failure = host.runScript(source: Data(statement.utf8), chunkName: "=(command line)", settingArg: false) { return failure }
                }
                return host.runScript(atPath: script, arguments: scriptArguments, settingArg: false)
            }
        }
    }

    /// Ends a command that a terminating signal ended, as a run ends (RunExit):
    /// 128 + the signal as shells expect, and SIGPIPE for output that could not
    /// be written (OutputContract): 141 or 74.
    static func exit(afterSignal signal: Int32) throws {
        try exitingAsCommand { try RunExit.end(afterSignal: signal) }
    }
}

extension RunSettings {
    /// The run's settings as the options give them.
    init(options: StoreOptions, hardening: HardeningOptions, speed: Double?, view: ViewOptions, serve: ViewServeOptions? = nil) {
        let store = RunStoreSettings(named: options.stateDir != nil || options.store != nil) { try RunSharedStoreBox(options.openShared()) }
        self.init(store: store, hardening: hardening.settings, speed: speed, view: view.settings,
                  serve: serve?.settings(stateDir: options.stateDir))
    }
}

/// The command line's store (SharedStore) as a run uses it.
final class RunSharedStoreBox: RunSharedStore {
    let store: SharedStore
    init(_ store: SharedStore) { self.store = store }
    var persistence: CountdownStoreBackend { store.persistence }
    var bootID: String? { store.bootID }
    var externalChangeTolerance: Nanoseconds? { store.externalChangeTolerance }
    func changeFeed(timers: WakeUpTimerSource) throws -> CountdownChangeFeed { try store.changeFeed(timers: timers) }
    func chargeHeldChanges(to charge: @escaping (Int) -> Bool) { store.chargeHeldChanges(to: charge) }
    func finishRun(withinMilliseconds milliseconds: Int) -> Bool { store.finishRun(withinMilliseconds: milliseconds) }
}
