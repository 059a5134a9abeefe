import ArgumentParser
import CountdownCore
import StoreViews
import CommandLineWords

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
        try exitingAsCommand { try StoredChange.apply(id: id, in: try storeOptions.openShared(), verb: "append to") { record, now in
            record.appendChange(amount, shown: duration, at: now)
        } }
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
        try exitingAsCommand { try StoredChange.apply(id: id, in: try storeOptions.openShared(), verb: "pause") { record, now in
            record.pauseChange(at: now)
        } }
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
        try exitingAsCommand { try StoredChange.apply(id: id, in: try storeOptions.openShared(), verb: "resume") { record, now in
            record.resumeChange(at: now)
        } }
    }
}
