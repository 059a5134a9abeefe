import ArgumentParser
import CountdownCore
import StoreViews
import CommandLineWords

/// `cdscript start ID DURATION|DEADLINE`: stores a countdown and returns at once.
/// Nothing runs it here: `status`, `list`, `watch`, the bars and every process
/// that fetches it show it, `append`/`pause`/`resume`/`cancel` change it, and
/// `cdscript serve` runs its end actions. The record is the one `timer --id` and
/// `persist = true` write.
struct StartCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "start",
        abstract: "Store a countdown and return at once: no terminal needs to stay open (cdscript serve runs its end actions).",
        usage: "cdscript start <id> <duration|deadline> [--title <text>] [--every <duration>] [--overtime] [--action <name>]... [--replace] [--store <url>] [--state-dir <dir>]"
    )

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The id to store it under.")
    var id: String

    @Argument(help: ArgumentHelp("Seconds (90), a duration (25m, 1h30m), a clock time (20:00) or a date (2026-12-01T20:00:00+08:00), as the timer takes them.", valueName: "DURATION|DEADLINE"))
    var spec: String

    @Option(help: ArgumentHelp("What the countdown is called: shown by list and status's {title} (at most \(CountdownAnnotations.longestTitle) characters, one line).", valueName: "TEXT"))
    var title: String?

    @Option(help: ArgumentHelp("How often followers tick (default 1 s; at least 0.1 s).", valueName: "DURATION"))
    var every: String?

    @Flag(help: "Past the end, run on into overtime (+time) until cancelled, instead of finishing.")
    var overtime = false

    @Option(name: .customLong("action"), help: ArgumentHelp("An end action to run once at the end, by name (\(CountdownAnnotations.actionNameRule)); cdscript serve decides what a name runs. Repeatable.", valueName: "NAME"))
    var actions: [String] = []

    @Flag(help: "Replace a running or paused countdown stored under the id (without it, that is refused, exit 10).")
    var replace = false

    func validate() throws {
        if id.isEmpty { throw ValidationError("the id must not be empty") }
        if id.utf8.contains(0) { throw ValidationError("the id must not hold a NUL byte") }
        _ = try length(now: BootClock().wallNow())
        if let every { _ = try DurationArgument.read(every, as: "--every", in: .tickInterval) }
        if let title, let refusal = CountdownAnnotations.titleRefusal(title) { throw ValidationError("--title: \(refusal)") }
        if let refusal = CountdownAnnotations.actionsRefusal(actions) { throw ValidationError("--action: \(refusal)") }
        if overtime, !actions.isEmpty {
            throw ValidationError("--action with --overtime: an overtime countdown never finishes by time, so its end runs no end action; drop one of them")
        }
    }

    /// What SPEC says, read as the timer reads it (`StartSpec`).
    func length(now wall: Nanoseconds) throws -> TimerSpec {
        do { return try StartSpec.read(spec, wallNow: wall) } catch { throw ValidationError("DURATION|DEADLINE: \(error)") }
    }

    func run() throws {
        let store = try storeOptions.openShared()
        let every = try self.every.map { try DurationArgument.read($0, as: "--every", in: .tickInterval) } ?? Time.nanosecondsPerSecond
        try exitingAsCommand {
            try StoredChange.start(id: id, replace: replace, in: store) { now in
                do {
                    return try StoredCountdown.started(id: id, spec: try length(now: now.wall), every: every, overtime: overtime,
                                                       title: title, actions: actions, at: now)
                } catch let error as ValidationError {
                    throw error
                } catch {
                    throw ValidationError("DURATION|DEADLINE: \(error)")
                }
            }
        }
    }
}
