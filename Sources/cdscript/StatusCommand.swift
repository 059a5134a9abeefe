import ArgumentParser
import CountdownCore
import SQLiteStore

/// `cdscript status [ID...]`: one line for a status bar that runs a command
/// every second (tmux's `#(cdscript status tea)`) or a shell prompt. One read of
/// the store and nothing else: no Lua state, no run loop, no time zone unless
/// `{end}` asks for one.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Print one line with stored countdowns' time left, for tmux's status line or a shell prompt.",
        discussion: """
            Without ids: the running and paused countdowns, soonest end first (an empty \
            line when there are none). With ids: those, in that order; exit 7 when one \
            is not stored (the others are still shown).
            Placeholders of --format: \(StatusFormat.placeholders.joined(separator: " ")); {{ and }} for braces.
            """
    )

    @OptionGroup var storeOptions: StoreOptions

    @Option(help: ArgumentHelp("What to show for each countdown (default: \"\(StatusFormat.defaultText)\").", valueName: "TEXT"))
    var format: String = StatusFormat.defaultText

    @Option(help: ArgumentHelp("Put between countdowns (default: two spaces).", valueName: "TEXT"))
    var separator: String = "  "

    @Argument(help: "Ids to show (default: the running and paused ones).", completion: .storedIDs)
    var ids: [String] = []

    func validate() throws {
        do {
            _ = try StatusFormat(format)
        } catch {
            throw ValidationError("--format: \(error)")
        }
    }

    func run() throws {
        let template = try StatusFormat(format)
        let store = try storeOptions.openShared()
        let shown: [ShownCountdown]
        var missing: [String] = []
        var unreadable: [UnreadableCountdown] = []
        let now: StoreInstant
        do {
            let listing = store.exists ? try store.persistence.listing() : StoredCountdownListing(countdowns: [])
            now = try store.now()
            let all = listing.countdowns.map { ShownCountdown($0, at: now) }
            if ids.isEmpty {
                shown = all.filter { $0.state != .finished }.sorted(by: ShownCountdown.soonestFirst)
            } else {
                var byID: [CountdownID: ShownCountdown] = [:]
                for countdown in all { byID[CountdownID(countdown.id)] = countdown }
                let bad = Dictionary(listing.unreadable.map { (CountdownID($0.id), $0) }, uniquingKeysWith: { a, _ in a })
                var found: [ShownCountdown] = []
                for id in ids {
                    if let countdown = byID[CountdownID(id)] {
                        found.append(countdown)
                    } else if let record = bad[CountdownID(id)] {
                        unreadable.append(record)
                    } else {
                        missing.append(id)
                    }
                }
                shown = found
            }
        } catch {
            throw failOnStore(error)
        }
        let line = shown.map { template.render($0, now: now.wall) }.joined(separator: separator)
        emit(line, what: "the status line")
        for record in unreadable { printError("cdscript: \(record)") }
        for id in missing {
            printError("cdscript: no stored countdown has the id '\(VisibleText.escaped(id))' (in \(store.location))")
        }
        if !unreadable.isEmpty { throw ExitCode(ExitStatus.storeError.rawValue) }
        if !missing.isEmpty { throw ExitCode(ExitStatus.unknownCountdown.rawValue) }
    }
}
