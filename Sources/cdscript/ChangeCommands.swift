import ArgumentParser
import CountdownCore
import CountdownStore

/// `cdscript append ID SECONDS`: moves a stored countdown's end later, in one
/// transaction on the stored record, as `h:append` does; every process running it
/// follows at once.
struct AppendCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "append",
        abstract: "Add SECONDS to a stored countdown; every process running it follows at once."
    )

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The id of the stored countdown.", completion: .storedIDs)
    var id: String

    // .allUnrecognized: `-30` is a value (30 s off), not an unknown option.
    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("Seconds to add; negative to take time off (-30).", valueName: "SECONDS"))
    var secondsArguments: [String] = []

    /// SECONDS in nanoseconds, nonzero; validate() has checked it.
    var amount: Nanoseconds {
        secondsArguments.first.flatMap(Double.init).flatMap(Time.nanoseconds(fromSeconds:)) ?? 0
    }

    func validate() throws {
        try CommandArguments.checkValues(secondsArguments, names: "SECONDS")
        guard let text = secondsArguments.first else { throw ValidationError("Missing expected argument '<seconds>'") }
        if let seconds = Double(text), abs(seconds) > Double(CountdownRange.longestSeconds) {
            throw ValidationError("SECONDS must be at most \(CountdownRange.longestText) either way, the longest a countdown can be, got \(text)")
        }
        guard let seconds = Double(text), seconds.isFinite, let ns = Time.nanoseconds(fromSeconds: seconds), ns != 0 else {
            throw ValidationError("SECONDS must be a number of seconds other than 0 (negative takes time off), got \(text)")
        }
        _ = ns
    }

    func run() throws {
        let amount = self.amount
        try StoredChange.apply(id: id, options: storeOptions, verb: "append to") { record, now in
            // Refused before anything is written: every stored value must read back.
            if let why = record.appendRefusal(amount, at: now) {
                return .refused("cannot add \(secondsArguments.first ?? "") seconds: \(why)")
            }
            return record.append(amount, at: now) ? .changed : .ended
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

    @Argument(help: "The id of the stored countdown.", completion: .storedIDs)
    var id: String

    func run() throws {
        try StoredChange.apply(id: id, options: storeOptions, verb: "pause") { record, now in
            switch record.effectiveState(at: now) {
            case .finished: return .ended
            case .paused: return .unchanged("already paused")
            case .running: return record.pause(at: now) ? .changed : .ended
            }
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

    @Argument(help: "The id of the stored countdown.", completion: .storedIDs)
    var id: String

    func run() throws {
        try StoredChange.apply(id: id, options: storeOptions, verb: "resume") { record, now in
            switch record.effectiveState(at: now) {
            case .finished: return .ended
            case .running: return .unchanged("already running")
            case .paused: return record.resume(at: now) ? .changed : .ended
            }
        }
    }
}

/// One change to one stored countdown, made the way the commands share: one
/// transaction, exit 7 for an unknown (or ended) id, 6 for an unusable store.
enum StoredChange {
    enum Outcome {
        case changed
        case unchanged(String)
        case ended
        /// Beyond `CountdownRange`: nothing changed; says why, naming the bound.
        case refused(String)
    }

    static func apply(id: String, options: StoreOptions, verb: String,
                      _ change: @escaping (inout StoredCountdown, StoreInstant) -> Outcome) throws {
        let store = try options.openShared()
        var outcome: Outcome?
        var after: StoredCountdown?
        let now: StoreInstant
        do {
            now = try store.now()
            try store.modify(id: id) { record in
                guard var r = record else { return }
                outcome = change(&r, now)
                if case .changed = outcome { record = r }
                after = record
            }
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
    }

    static func describe(_ record: StoredCountdown?, at now: StoreInstant) -> String {
        guard let record else { return "gone" }
        if record.isPastEnd(at: now) {
            return "\(record.listedState(at: now)), +\(CountdownListing.clock(record.timePastEnd(at: now))) past its end"
        }
        return "\(record.effectiveState(at: now).rawValue), \(CountdownListing.clock(record.remaining(at: now))) left"
    }
}
