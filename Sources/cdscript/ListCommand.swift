import ArgumentParser
import CountdownCore
import SQLiteStore
import FoundationEssentials
import TerminalView

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Show the stored countdowns: id, state, remaining time, deadline."
    )

    @OptionGroup var storeOptions: StoreOptions

    @Flag(help: "Print the countdowns as a JSON array.")
    var json = false

    func run() throws {
        let store = try storeOptions.openShared()
        let writer = ListingWriter(json: json)
        var unreadable: [UnreadableCountdown] = []
        do {
            // Read after connecting (Redis measures its clock there), before the rows.
            let now = try store.now()
            if store.exists {
                try store.persistence.forEachListed(batchSize: ListingWriter.batchSize) { batch in
                    unreadable += batch.unreadable
                    return writer.add(batch.countdowns, at: now)
                }
            }
        } catch {
            throw failOnStore(error)
        }
        if !writer.finish() {
            if unreadable.isEmpty { emit("no stored countdowns in \(store.location)", what: "the listing") }
        }
        // The readable ones are listed above; each unreadable one is named, and
        // the exit status says the store is not whole.
        guard unreadable.isEmpty else {
            for record in unreadable { printError("cdscript: \(record)") }
            throw ExitCode(ExitStatus.storeError.rawValue)
        }
    }
}

/// How `cdscript list` (and `watch`, and the change commands) write a
/// countdown's remaining time and deadline; `ListingWriter` writes the listing.
enum CountdownListing {
    /// `1d 02:03:04.5`, `02:03:04.5`.
    static func clock(_ ns: Nanoseconds) -> String {
        (ns >= 86_400 * Time.nanosecondsPerSecond ? withDays : withinADay)?.render(ns) ?? "\(Time.seconds(ns))"
    }

    // Parsed once: a listing renders one per row.
    private static let withDays = try? FormatPattern("{d}d {hh}:{mm}:{ss}.{t}")
    private static let withinADay = try? FormatPattern("{hh}:{mm}:{ss}.{t}")

    /// ISO 8601, UTC, to the millisecond (`UTCTimestamp`, the text Foundation's formatter wrote).
    static func iso8601(_ wall: Nanoseconds) -> String { UTCTimestamp.iso8601(wall) }
}
