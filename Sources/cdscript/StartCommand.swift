import ArgumentParser
import CountdownCore

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

    /// What SPEC says, read as the timer reads it: a duration, or a deadline that
    /// is still to come and within `CountdownRange`.
    func length(now wall: Nanoseconds) throws -> TimerSpec {
        if spec.hasPrefix("-") {
            throw ValidationError("DURATION|DEADLINE: a countdown lasts longer than 0, got \"\(spec)\" (to take time off a stored countdown: cdscript append ID -30)")
        }
        let parsed: TimerSpec
        do {
            parsed = try DeadlineParser.parseTimerSpec(spec, wallNow: wall, timeZone: SystemLocalZone())
        } catch {
            throw ValidationError("DURATION|DEADLINE: \(error)")
        }
        switch parsed {
        case .duration(let ns):
            if ns <= 0 { throw ValidationError("DURATION|DEADLINE: the duration must be longer than 0, got \"\(spec)\"") }
            if ns > CountdownRange.longestDuration {
                throw ValidationError("DURATION|DEADLINE: \"\(spec)\" is longer than \(CountdownRange.longestText), the longest a countdown can be")
            }
        case .deadline(let instant):
            if instant <= wall { throw ValidationError("DURATION|DEADLINE: \(spec) is in the past") }
            if instant > CountdownRange.latestInstant || instant - wall > CountdownRange.longestDuration {
                throw ValidationError("DURATION|DEADLINE: \(spec) is too far away: a countdown lasts at most \(CountdownRange.longestText) and ends by \(CountdownRange.latestInstantText)")
            }
        }
        return parsed
    }

    func run() throws {
        let store = try storeOptions.openShared()
        let every = try self.every.map { try DurationArgument.read($0, as: "--every", in: .tickInterval) } ?? Time.nanosecondsPerSecond
        var conflict: StoredCountdown?
        var stored: StoredCountdown?
        let now: StoreInstant
        do {
            now = try store.now()
            // Read again against the store's own now: a clock time such as 20:00 is read once.
            let spec = try length(now: now.wall)
            let record: StoredCountdown
            do {
                record = try StoredCountdown.started(id: id, spec: spec, every: every, overtime: overtime,
                                                     title: title, actions: actions, at: now)
            } catch {
                throw ValidationError("DURATION|DEADLINE: \(error)")
            }
            try store.persistence.modify(id: id) { existing in
                if let existing, existing.effectiveState(at: now) != .finished, !replace {
                    conflict = existing
                    return
                }
                existing = record
                stored = record
            }
        } catch let error as ValidationError {
            throw error
        } catch {
            throw failOnStore(error)
        }
        let shown = VisibleText.escaped(id)
        if let conflict {
            printError("cdscript: a countdown '\(shown)' is already stored, \(StoredChange.describe(conflict, at: now)) (in \(store.location)); "
                       + "`cdscript start --replace` replaces it, `cdscript cancel '\(shown)'` removes it")
            throw ExitCode(ExitStatus.conflict.rawValue)
        }
        guard let stored else { return }
        emit(Self.summary(stored, at: now), what: "the report")
        if let status = store.finishCommand() { throw ExitCode(status.rawValue) }
    }

    /// The one line `start` prints: `pomo: running, 00:25:00.0 left, ends 2026-11-29T10:25:00.000Z, "Tea", actions notify`.
    static func summary(_ record: StoredCountdown, at now: StoreInstant) -> String {
        var line = "\(VisibleText.escaped(record.id)): stored, \(StoredChange.describe(record, at: now)), ends \(CountdownListing.iso8601(record.wallDeadline(at: now)))"
        if let title = record.title { line += ", \"\(VisibleText.escaped(title))\"" }
        if !record.actions.isEmpty { line += ", actions " + record.actions.joined(separator: " ") }
        return line
    }
}
