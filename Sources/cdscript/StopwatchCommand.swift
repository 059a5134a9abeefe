import CommandEnding
import ArgumentParser
import FoundationEssentials
import LuaHost
#if canImport(Glibc)
import Glibc
import CommandLineWords
#endif

/// `cdscript stopwatch`: counts up, with laps. The work is done by a built-in
/// Lua script (BuiltinScripts/stopwatch.lua), which `--eject` prints.
struct StopwatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stopwatch",
        abstract: "Count up from zero in big digits, with laps: Space pauses, l records a lap, r resets, q ends; the laps and their summary are printed at the end, however it comes.",
        discussion: """
            The stopwatch is a built-in Lua script: `cdscript stopwatch --eject > mywatch.lua` \
            writes it out as a start for your own.
            """
    )

    @OptionGroup var options: BuiltinScriptOptions

    @Flag(help: "Print the stopwatch's Lua script, commented, and exit.")
    var eject = false

    @Option(help: ArgumentHelp("Shown above the digits and in the window title.", valueName: "TEXT"))
    var title: String?

    @Option(name: .customLong("quit-after"), parsing: .unconditional, help: ArgumentHelp("End the run DURATION after the start (0, or 0.1 s and longer), laps printed as after q.", valueName: "DURATION"))
    var quitAfter: String?

    @Flag(name: .customLong("no-window-title"), help: "Leave the window title alone (by default it shows the time, and is put back at the end).")
    var noWindowTitle = false

    @Option(name: .customLong("laps-file"), help: ArgumentHelp("Add each lap to PATH as it is taken: a CSV line (lap, lap seconds, total seconds), so a closed window keeps them.", valueName: "PATH"), completion: .file())
    var lapsFile: String?

    /// The built-in script's text.
    static var script: String { String(decoding: PackageResources.stopwatch_lua, as: UTF8.self) }

    func validate() throws {
        if eject { return }
        if let quitAfter { _ = try DurationArgument.read(quitAfter, as: "--quit-after", in: .wait) }
        if let lapsFile, lapsFile.isEmpty { throw ValidationError("--laps-file must name a file") }
        try options.check()
    }

    func run() throws {
        if eject {
            emit(Self.script, terminator: "", what: "the script")
            return
        }
        try options.run(PackageResources.stopwatch_lua, chunkName: "=[cdscript stopwatch]", arguments: ["stopwatch"] + scriptArguments)
    }

    /// The arguments the script reads, as an ejected copy is given them.
    var scriptArguments: [String] {
        var arguments: [String] = []
        if let title { arguments += ["--title", title] }
        if let every = options.every { arguments += ["--every", every] }
        if let quitAfter { arguments += ["--quit-after", quitAfter] }
        if noWindowTitle { arguments.append("--no-window-title") }
        if let lapsFile { arguments += ["--laps-file", lapsFile] }
        if options.viewOptions.plain { arguments.append("--plain") }
        if options.viewOptions.noColor { arguments.append("--no-color") }
        return arguments
    }
}
