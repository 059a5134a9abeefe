import CommandEnding
import ArgumentParser
import CountdownCore
import FoundationEssentials
import ScriptRunning
import CommandLineWords

/// `cdscript timer SPEC`: a countdown without a script file. The work is done by
/// a built-in Lua script (BuiltinScripts/timer.lua), which `--eject` prints.
struct TimerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timer",
        abstract: "Count down without a script: big digits, a progress bar, the bell at the end.",
        usage: "cdscript timer <spec> [<options>]\n       cdscript timer --eject",
        discussion: """
            SPEC is seconds (90), a duration (25m, 1h30m, 2d4h, 1m30.5s), a clock time (20:00) \
            or an ISO 8601 date (2026-12-01T20:00:00+08:00). The timer is a built-in Lua script: \
            `cdscript timer --eject > mytimer.lua` writes it out as a start for your own, and \
            `cdscript mytimer.lua SPEC [OPTIONS]` runs it as this command does.
            A pomodoro: `cdscript timer 25m --then 5m --rounds 4` runs work 1/4, break 1/4, ..., \
            work 4/4 (no break after the last work), a bell (and --exec) at every phase's end; \
            with --id each phase is stored with its name as its title, so `cdscript status` \
            and the bars show "work 2/4", and the same command again continues the phase.
            Keys: + and - add and take off 10 s, r restarts, e shows the end time, Space \
            pauses (not a deadline), q quits.
            """
    )

    @OptionGroup var options: BuiltinScriptOptions

    @Flag(help: "Print the timer's Lua script, commented, and exit.")
    var eject = false

    @Option(help: ArgumentHelp("Shown above the digits and as the window title.", valueName: "TEXT"))
    var title: String?

    @Option(help: ArgumentHelp("Keep the timer in the store under ID: `cdscript list` shows it, the same command again continues it.", valueName: "ID"))
    var id: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Show the last DURATION (30, 1m) in the warning style (red, bold).", valueName: "DURATION"))
    var critical: String?

    @Option(help: ArgumentHelp("At the end, show TEXT in big letters.", valueName: "TEXT"))
    var text: String?

    @Flag(help: "At the end, flash the digits.")
    var blink = false

    @Flag(help: "At the end, keep the screen until a key is pressed.")
    var wait = false

    @Option(name: .customLong("quit-after"), parsing: .unconditional, help: ArgumentHelp("At the end, end the run DURATION later (0, or 0.1 s and longer; default: at once, 5 s with --text or --blink, at a key with --wait); with --overtime, counting up until then.", valueName: "DURATION"))
    var quitAfter: String?

    @Flag(help: "Past the end, count up in the warning style (+0:12) until q or --quit-after.")
    var overtime = false

    @Flag(name: .customLong("no-window-title"), help: "Leave the window title alone (by default it shows the time left, and is put back at the end).")
    var noWindowTitle = false

    @Flag(name: .customLong("no-bell"), help: "Ring no bell at the end.")
    var noBell = false

    @Option(name: .customLong("then"), parsing: .unconditional, help: ArgumentHelp("A pomodoro's break: after SPEC of work, DURATION of break, for --rounds rounds.", valueName: "DURATION"))
    var then: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("With --then: how many rounds of work and break (the last round ends with its work).", valueName: "N"))
    var rounds: String?

    @Option(help: ArgumentHelp("Keep PATH holding the time shown, replaced whole on every change (for OBS's text source).", valueName: "PATH"), completion: .file())
    var outfile: String?

    // .allUnrecognized: a SPEC such as `-5` is a value (refused by validate() with
    // a message), not an unknown option.
    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("How long, or until when: 90, 25m, 1h30m, 20:00, 2026-12-01T20:00:00+08:00.", valueName: "SPEC"))
    var specArguments: [String] = []

    /// The SPEC given, once validate() has checked there is at most one.
    var spec: String? { CommandArguments.values(specArguments).first }

    @Option(parsing: .remaining, help: ArgumentHelp("Run PROGRAM with ARGS (no shell) when the time is up; with --id, once per end however many terminals follow the timer. Takes the rest of the line.", valueName: "PROGRAM ARGS..."), completion: .programs)
    var exec: [String] = []

    @Option(name: .customLong("exec-shell"), help: ArgumentHelp("Run LINE with /bin/sh -c when the time is up (a shell line: pipes, redirections); as --exec otherwise.", valueName: "LINE"))
    var execShell: String?

    /// The built-in script's text.
    static var script: String { String(decoding: PackageResources.timer_lua, as: UTF8.self) }

    func validate() throws {
        if exec.isEmpty, CommandLine.arguments.dropFirst().contains("--exec") {
            throw ValidationError("--exec needs a program to run: --exec PROGRAM [ARGS...]")
        }
        if !exec.isEmpty, execShell != nil { throw ValidationError("--exec and --exec-shell: give one of them") }
        if let line = execShell, line.allSatisfy({ $0.isWhitespace && !$0.isNewline }) {
            throw ValidationError("--exec-shell needs a line to run")
        }
        if let program = exec.first { try exitingAsCommand { try TimerChecks.program(program) } }
        let missing = "give the time to count down: seconds (90), a duration (25m, 1h30m), a clock time (20:00) or a date"
        try exitingAsCommand { try TimerChecks.termdownHabits(specArguments) }
        if eject, spec == nil { return }
        try CommandArguments.checkValues(specArguments, names: "SPEC", missing: missing)
        if eject { return }
        guard let spec else { throw ValidationError(missing) }
        let parsed = try exitingAsCommand { try TimerChecks.spec(spec) }
        if let critical { _ = try DurationArgument.read(critical, as: "--critical", in: .span) }
        if let quitAfter { _ = try DurationArgument.read(quitAfter, as: "--quit-after", in: .wait) }
        try options.check()
        if let id, id.isEmpty { throw ValidationError("--id must not be empty") }
        // With --id the title is stored with the timer, within the stored record's limits.
        if id != nil, let title, let refusal = CountdownAnnotations.titleRefusal(title) { throw ValidationError("--title: \(refusal)") }
        if let outfile, outfile.isEmpty { throw ValidationError("--outfile must name a file") }
        if overtime, id != nil, !exec.isEmpty || execShell != nil {
            throw ValidationError(TimerChecks.overtimeExecRefusal)
        }
        try exitingAsCommand {
            try TimerChecks.rounds(parsed, spec: spec, then: then, rounds: rounds, overtime: overtime, id: id, title: title)
        }
    }

    func run() throws {
        if eject {
            emit(Self.script, terminator: "", what: "the script")
            return
        }
        try options.run(PackageResources.timer_lua, chunkName: "=[cdscript timer]", arguments: ["timer"] + scriptArguments)
    }

    /// The arguments the script reads, as an ejected copy is given them: the
    /// script, not this command, gives every option its effect and its default
    /// (--every's depends on --plain), so the two runs are the same program.
    var scriptArguments: [String] {
        var arguments = [spec ?? ""]
        if let title { arguments += ["--title", title] }
        if let every = options.every { arguments += ["--every", every] }
        if let id { arguments += ["--id", id] }
        if let critical { arguments += ["--critical", critical] }
        if let text { arguments += ["--text", text] }
        if blink { arguments.append("--blink") }
        if wait { arguments.append("--wait") }
        if let quitAfter { arguments += ["--quit-after", quitAfter] }
        if overtime { arguments.append("--overtime") }
        if noWindowTitle { arguments.append("--no-window-title") }
        if noBell { arguments.append("--no-bell") }
        if let outfile { arguments += ["--outfile", outfile] }
        if let then { arguments += ["--then", then] }
        if let rounds { arguments += ["--rounds", rounds] }
        if options.viewOptions.plain { arguments.append("--plain") }
        if options.viewOptions.noColor { arguments.append("--no-color") }
        if let execShell { arguments += ["--exec-shell", execShell] }
        if !exec.isEmpty { arguments += ["--exec"] + exec }
        return arguments
    }
}
