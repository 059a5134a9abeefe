import CommandEnding
import CountdownCore
import LuaHost

/// `cdscript timer`'s options, checked when they are read, as timer.lua checks
/// them (an ejected copy runs without the command line): a usage error (exit 64)
/// names the option and what to give instead.
public enum TimerChecks {
    /// Said here and by timer.lua (which an ejected copy runs alone): an overtime
    /// end takes no claim in the store, so its command could not run once.
    public static let overtimeExecRefusal = "--exec with --overtime and --id: the end of an overtime timer is not claimed in the store, so its command could not run once per end; drop --overtime or --exec"

    /// SPEC read as a duration or a deadline: longer than 0, not in the past.
    public static func spec(_ spec: String, clock: TimeSource = BootClock(), zone: any LocalZone = SystemLocalZone()) throws(UsageError) -> TimerSpec {
        if spec.hasPrefix("-"), spec.dropFirst().first.map({ $0.isNumber || $0 == "." }) == true {
            throw UsageError("SPEC: a timer counts down a duration longer than 0, got \"\(spec)\" (to take time off a stored countdown: cdscript append ID -30)")
        }
        let parsed: TimerSpec
        do {
            parsed = try DeadlineParser.parseTimerSpec(spec, wallNow: clock.wallNow(), timeZone: zone)
        } catch {
            throw UsageError("SPEC: \(error)")
        }
        switch parsed {
        case .duration(let ns) where ns <= 0:
            throw UsageError("SPEC: the duration must be longer than 0, got \"\(spec)\"")
        case .deadline(let instant) where instant <= clock.wallNow():
            throw UsageError("SPEC: \(spec) is in the past")
        default:
            return parsed
        }
    }

    /// The longest phase name the timer stores as a title ("break N/N"), for the
    /// title's limit with --title in front of it.
    public static func phaseTitle(_ title: String?, name: String, round: Int, rounds: Int) -> String {
        let phase = "\(name) \(round)/\(rounds)"
        return title.map { "\($0) · \(phase)" } ?? phase
    }

    /// `--then DURATION --rounds N` (a pomodoro): both or neither, N a whole
    /// number from 1, a duration SPEC (`parsed`, as the user wrote it: `spec`),
    /// no --overtime, and with --id each phase's title within the stored limits.
    public static func rounds(_ parsed: TimerSpec, spec: String, then: String?, rounds: String?, overtime: Bool,
                              id: String?, title: String?) throws(UsageError) {
        guard then != nil || rounds != nil else { return }
        guard let then, let rounds else {
            throw UsageError("--then and --rounds go together: --then DURATION --rounds N (a pomodoro: cdscript timer 25m --then 5m --rounds 4)")
        }
        guard let count = Int(rounds), count >= 1 else {
            throw UsageError("--rounds must be a whole number, 1 or more, got \"\(rounds)\"")
        }
        do {
            _ = try DurationRange.tickInterval.read(then)
        } catch {
            throw UsageError("--then \(error)")
        }
        if case .deadline = parsed {
            throw UsageError("--rounds needs a duration SPEC (25m), not a clock time or date, got \"\(spec)\"")
        }
        if overtime { throw UsageError("--overtime with --rounds: each phase ends on time and the next one begins") }
        if id != nil, let refusal = CountdownAnnotations.titleRefusal(phaseTitle(title, name: "break", round: count, rounds: count)) {
            throw UsageError("--title: with --rounds each phase's title is \"TITLE · work 1/\(count)\": \(refusal)")
        }
    }

    /// termdown's short options (termdown 2.0), each with what `cdscript timer`
    /// calls it: a termdown user's habit gets a pointer, not "Unknown option".
    static let termdownOptions: [String: String] = [
        "-T": "--title TEXT",
        "-c": "--critical DURATION",
        "-t": "--text TEXT",
        "-b": "--blink",
        "-B": "--no-bell",
        "-o": "--outfile PATH",
        "-q": "--quit-after DURATION",
        "-W": "--no-window-title",
        "-e": "--exec PROGRAM ARGS... (run once, at the end; termdown's -e runs a command every second)",
    ]

    /// Refuses the first of termdown's short options among `words` (the
    /// arguments no option took), naming the option to use.
    public static func termdownHabits(_ words: [String]) throws(UsageError) {
        let options = words.firstIndex(of: "--").map { Array(words[..<$0]) } ?? words
        for word in options {
            let name = word.count > 2 && !word.hasPrefix("--") ? String(word.prefix(2)) : word
            if let ours = termdownOptions[name] {
                throw UsageError("\(name) is termdown's option; cdscript timer's is \(ours)")
            }
        }
    }

    /// `--exec`'s program, looked up when the option is read, not at the end (a
    /// 45-minute exam should not learn at minute 45 that its command is not
    /// there): exit 127 when it is missing, 126 when it cannot be executed, as a
    /// shell says; a program that looks like a shell line is pointed to --exec-shell.
    public static func program(_ program: String) throws(CommandExit) {
        let refusal: String
        let status: ExitStatus
        switch ProgramPath.lookup(program) {
        case .found: return
        case .missing:
            let place = program.contains("/") ? "at \(VisibleText.escaped(program))" : "\"\(VisibleText.escaped(program))\" on PATH"
            (refusal, status) = ("no program \(place)", .commandNotFound)
        case .notExecutable(let path):
            (refusal, status) = ("\(VisibleText.escaped(path)) is not executable", .commandNotExecutable)
        }
        let shellLike = program.contains { " ;&|<>$`'\"*?".contains($0) }
        let hint = shellLike ? " (--exec runs a program with its arguments, never a shell line: --exec-shell '\(VisibleText.escaped(program))' runs one)" : ""
        printError("cdscript timer: --exec: \(refusal)\(hint)")
        throw CommandExit(status)
    }
}
