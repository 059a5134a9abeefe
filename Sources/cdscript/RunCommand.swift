import ArgumentParser
import CommandEnding
import CountdownCore
import FoundationEssentials
import LuaHost
import ScriptRunning
import TerminalView
import StoreViews
import CommandLineWords

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
        try NumberArgument.checkSpeed(speed)
        if watch && coverage { throw ValidationError("--watch and --coverage cannot go together: coverage counts one version of the script") }
        if watch && script == "-" { throw ValidationError("--watch reloads a script file when it is saved; standard input (-) is read once") }
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
