import ArgumentParser
import CountdownCore
import SQLiteStore

/// `cdscript append ID DURATION`: moves a stored countdown's end later (or, with
/// a negative DURATION, earlier), in one transaction on the stored record, as
/// `h:append` does; every process running it follows at once.
struct AppendCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "append",
        abstract: "Add DURATION to a stored countdown (negative takes time off); every process running it follows at once.",
        usage: "cdscript append <id> <duration> [--store <url>] [--state-dir <dir>]"
    )

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The id of the stored countdown.", completion: .storedIDs(.unfinished))
    var id: String

    // .allUnrecognized: `-30` and `-5m` are values (time off), not unknown options.
    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("Time to add: seconds (30) or a duration (5m, 1h30m); negative takes time off (-30, -5m; or after --: -- -30).", valueName: "DURATION"))
    var durationArguments: [String] = []

    /// The DURATION given, as typed.
    var duration: String { CommandArguments.values(durationArguments).first ?? "" }

    /// DURATION in nanoseconds, nonzero; validate() has checked it.
    var amount: Nanoseconds { (try? DurationRange.change.read(duration)) ?? 0 }

    func validate() throws {
        try CommandArguments.checkValues(durationArguments, names: "DURATION", missing: "Missing expected argument '<duration>'")
        _ = try DurationArgument.read(duration, as: "DURATION", in: .change)
    }

    func run() throws {
        let amount = self.amount
        let duration = self.duration
        try StoredChange.apply(id: id, options: storeOptions, verb: "append to") { record, now in
            record.appendChange(amount, shown: duration, at: now)
        }
    }
}

/// `cdscript pause ID`.
struct PauseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pause",
        abstract: "Pause a stored countdown; every process running it follows at once."
    )

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The id of the stored countdown.", completion: .storedIDs(.running))
    var id: String

    func run() throws {
        try StoredChange.apply(id: id, options: storeOptions, verb: "pause") { record, now in
            record.pauseChange(at: now)
        }
    }
}

/// `cdscript resume ID`.
struct ResumeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resume",
        abstract: "Resume a paused stored countdown; every process running it follows at once."
    )

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The id of the stored countdown.", completion: .storedIDs(.paused))
    var id: String

    func run() throws {
        try StoredChange.apply(id: id, options: storeOptions, verb: "resume") { record, now in
            record.resumeChange(at: now)
        }
    }
}

/// One change to one stored countdown, made the way the commands share: one
/// transaction, exit 7 for an unknown (or ended) id, 6 for an unusable store.
enum StoredChange {
    /// The decisions themselves are CountdownCore's (StoredChangeOutcome.swift), shared with `serve`.
    typealias Outcome = StoredChangeOutcome

    static func apply(id: String, options: StoreOptions, verb: String,
                      _ change: @escaping (inout StoredCountdown, StoreInstant) -> Outcome) throws {
        let store = try options.openShared()
        let outcome: Outcome?
        let after: StoredCountdown?
        let now: StoreInstant
        do {
            now = try store.now()
            // Nothing stored yet: no such id (a read-only command creates no file).
            (outcome, after) = store.exists ? try store.persistence.applyChange(id: id, at: now, change) : (nil, nil)
        } catch {
            throw failOnStore(error)
        }
        let shown = VisibleText.escaped(id)
        switch outcome {
        case nil:
            printError("cdscript: no stored countdown has the id '\(shown)' (in \(store.location))")
            throw ExitCode(ExitStatus.unknownCountdown.rawValue)
        case .ended?:
            printError("cdscript: the stored countdown '\(shown)' has finished: nothing to \(verb) (in \(store.location))")
            throw ExitCode(ExitStatus.unknownCountdown.rawValue)
        case .refused(let why)?:
            printError("cdscript: '\(shown)': \(why); it was left as it is")
            throw ExitCode(ExitStatus.usage.rawValue)
        case .unchanged(let why)?:
            emit("\(shown): \(why), \(describe(after, at: now))", what: "the report")
        case .changed?:
            emit("\(shown): \(describe(after, at: now))", what: "the report")
        }
        if let status = store.finishCommand() { throw ExitCode(status.rawValue) }
    }

    static func describe(_ record: StoredCountdown?, at now: StoreInstant) -> String {
        guard let record else { return "gone" }
        if record.isPastEnd(at: now) {
            return "\(record.listedState(at: now)), +\(CountdownListing.clock(record.timePastEnd(at: now))) past its end"
        }
        return "\(record.effectiveState(at: now).rawValue), \(CountdownListing.clock(record.remaining(at: now))) left"
    }
}
