import ArgumentParser
import CountdownCore
import CountdownStore
import Foundation
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
        var countdowns: [StoredCountdown] = []
        var unreadable: [UnreadableCountdown] = []
        let now: StoreInstant
        do {
            if store.exists {
                let listing = try store.persistence.listing()
                (countdowns, unreadable) = (listing.countdowns, listing.unreadable)
            }
            now = try store.now()
        } catch {
            throw failOnStore(error)
        }
        if json {
            emit(CountdownListing.json(countdowns, at: now), what: "the listing")
        } else if countdowns.isEmpty {
            if unreadable.isEmpty { emit("no stored countdowns in \(store.location)", what: "the listing") }
        } else {
            emit(CountdownListing.table(countdowns, at: now), terminator: "", what: "the listing")
        }
        // The readable ones are listed above; each unreadable one is named, and
        // the exit status says the store is not whole.
        guard unreadable.isEmpty else {
            for record in unreadable { printError("cdscript: \(record)") }
            throw ExitCode(ExitStatus.storeError.rawValue)
        }
    }
}

/// How `cdscript list` shows stored countdowns.
enum CountdownListing {
    struct Entry: Encodable {
        let id: String
        /// running, paused or finished, as of now (a running one whose end passed is
        /// finished), or overtime: an overtime countdown running past its end.
        let state: String
        /// "duration" (seconds) or "wall" (at).
        let kind: String
        /// Seconds left, never negative.
        let remaining: Double
        /// The end, ISO 8601 UTC; null while paused.
        let deadline: String?
        let every: Double
        let total: Double
        /// Seconds past the end of an overtime countdown (0 before it); null when
        /// it was not started with `overtime`.
        let overtime: Double?

        // A paused countdown has no deadline: say null rather than leave the key out.
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(id, forKey: .id)
            try c.encode(state, forKey: .state)
            try c.encode(kind, forKey: .kind)
            try c.encode(remaining, forKey: .remaining)
            try c.encode(deadline, forKey: .deadline)
            try c.encode(every, forKey: .every)
            try c.encode(total, forKey: .total)
            try c.encode(overtime, forKey: .overtime)
        }

        enum CodingKeys: String, CodingKey { case id, state, kind, remaining, deadline, every, total, overtime }
    }

    static func entries(_ countdowns: [StoredCountdown], at now: StoreInstant) -> [Entry] {
        countdowns.map { c in
            let state = c.effectiveState(at: now)
            return Entry(
                id: c.id, state: c.listedState(at: now), kind: c.kind.rawValue,
                remaining: Time.seconds(c.remaining(at: now)),
                deadline: state == .paused ? nil : iso8601(c.wallDeadline(at: now)),
                every: Time.seconds(c.every), total: Time.seconds(c.total),
                overtime: c.overtime ? Time.seconds(c.timePastEnd(at: now)) : nil)
        }
    }

    static func json(_ countdowns: [StoredCountdown], at now: StoreInstant) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        // Foundation pretty-prints an empty array as "[\n\n]".
        if countdowns.isEmpty { return "[]" }
        let data = (try? encoder.encode(entries(countdowns, at: now))) ?? Data("[]".utf8)
        return VisibleText.jsonEscapingControls(String(decoding: data, as: UTF8.self))
    }

    static func table(_ countdowns: [StoredCountdown], at now: StoreInstant) -> String {
        let rows = [["ID", "STATE", "REMAINING", "DEADLINE"]] + countdowns.map { c in
            let state = c.effectiveState(at: now)
            // Past the end of an overtime countdown: the time past it, as the view shows it.
            let shown = c.isPastEnd(at: now) ? "+" + clock(c.timePastEnd(at: now)) : clock(c.remaining(at: now))
            return [VisibleText.escaped(c.id), c.listedState(at: now), shown,
                    state == .paused ? "-" : iso8601(c.wallDeadline(at: now))]
        }
        // Columns line up by display width: an id like 名前 takes 4 columns.
        let widths = (0..<4).map { column in rows.map { DisplayWidth.of($0[column]) }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { i, cell in
                i == row.count - 1 ? cell : DisplayWidth.padded(cell, toColumns: widths[i])
            }.joined(separator: "  ") + "\n"
        }.joined()
    }

    /// `1d 02:03:04.5`, `02:03:04.5`.
    static func clock(_ ns: Nanoseconds) -> String {
        let pattern = ns >= 86_400 * Time.nanosecondsPerSecond ? "{d}d {hh}:{mm}:{ss}.{t}" : "{hh}:{mm}:{ss}.{t}"
        return (try? FormatPattern(pattern).render(ns)) ?? "\(Time.seconds(ns))"
    }

    static func iso8601(_ wall: Nanoseconds) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: Double(wall) / 1e9))
    }
}
