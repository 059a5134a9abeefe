import ArgumentParser
import CountdownCore
import StoreViews
import CommandLineWords

/// `cdscript status [ID...]`: one line for a status bar that runs a command
/// every second (tmux's `#(cdscript status tea)`) or a shell prompt. One read of
/// the store and nothing else: no Lua state, no run loop, no time zone unless
/// `{end}` asks for one.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: StatusRequest.commandName,
        abstract: "Print one line with stored countdowns' time left, for tmux's status line or a shell prompt.",
        discussion: """
            Without ids: the running, overtime and paused countdowns, soonest end first (an empty \
            line when there are none). With ids: those, in that order; exit 7 when one \
            is not stored (the others are still shown).
            Placeholders of --format: \(StatusFormat.placeholders.joined(separator: " ")); {{ and }} for braces.
            """
    )

    @OptionGroup var storeOptions: StoreOptions

    @Option(help: ArgumentHelp("What to show for each countdown (default: \"\(StatusFormat.defaultText)\").", valueName: "TEXT"))
    var format: String = StatusFormat.defaultText

    @Option(help: ArgumentHelp("Put between countdowns (default: two spaces).", valueName: "TEXT"))
    var separator: String = StatusRequest.defaultSeparator

    @Option(name: .customLong("for"), help: ArgumentHelp("Who reads the line: text (a prompt, polybar) or tmux (its #(...): every # escaped for tmux) (default: text).", valueName: "READER"))
    var destination: StatusDestination = .text

    @Flag(help: "Print the countdowns shown as a JSON array, each as `cdscript list --json` writes it.")
    var json = false

    @Argument(help: "Ids to show (default: the running, overtime and paused ones).", completion: .storedIDs)
    var ids: [String] = []

    func validate() throws {
        if json {
            for (name, given) in [("--format", format != StatusFormat.defaultText), ("--separator", separator != StatusRequest.defaultSeparator),
                                  ("--for", destination != .text)] where given {
                throw ValidationError("\(name) shapes the line, and --json writes no line: give one or the other")
            }
        }
        do {
            _ = try StatusFormat(format)
        } catch {
            throw ValidationError("--format: \(error)")
        }
    }

    func run() throws { try request.run() }

    /// What the words asked for, in plain values (StatusRequest.swift).
    var request: StatusRequest {
        StatusRequest(stateDir: storeOptions.stateDir, store: storeOptions.store, format: format, separator: separator, destination: destination, ids: ids,
                      json: json, tls: storeOptions.tlsSettings)
    }
}

extension StatusDestination: ExpressibleByArgument {}

extension StatusRequest {
    /// Runs the request, as `status` and its plain-words path (CDScript.swift) both do:
    /// its exit as ArgumentParser's, and a Redis journal set aside as exit 6 (`UnreadableJournal`).
    func run() throws {
        try exitingAsCommand { try show(journalSetAside: { UnreadableJournal.found = true }) }
    }
}
