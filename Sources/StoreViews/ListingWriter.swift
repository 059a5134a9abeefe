import CommandEnding
import CountdownCore
import TerminalView

/// Writes `cdscript list`'s output as the countdowns arrive, a batch at a time:
/// the JSON array entry by entry, the table once its column widths are known.
/// The text is byte for byte what the listing wrote when it was built whole
/// with `JSONEncoder` (pretty-printed, sorted keys, slashes unescaped) and a
/// padded table (a test compares the two on both stores).
///
/// Output goes out in pieces of about `flushBytes` (to standard output, unless
/// another `write` is given); once a write fails (a closed pipe, a full disk),
/// nothing more is formatted and `add` returns false so that the store stops being read.
public final class ListingWriter {
    /// Countdowns read from the store per batch.
    public static let batchSize = 1000
    /// Bytes gathered before a write.
    static let flushBytes = 64 * 1024
    /// What the output is called in a message when it cannot be written.
    public static let what = "the listing"

    public let json: Bool
    /// Takes a piece of the output; false once it could not be written.
    private let write: (String) -> Bool
    private var buffer = ""
    private var failed = false
    private var count = 0
    /// The table's rows, kept until the widths are known, in pages of `rowsPerPage`
    /// (an array that doubles holds twice its rows while it grows). A row keeps the
    /// time, not its text, which is written twice instead (once for the widths):
    /// at 100,000 countdowns the rows took about 14 MB at their peak, now about 6.
    private var rows: [[TableRow]] = []
    private static let rowsPerPage = 4096
    private var widths = (id: 0, state: 0, remaining: 0)
    /// True once a countdown with a title was listed: the table then has a TITLE column.
    private var titled = false
    /// True once a row with a deadline (not paused) was listed: the DEADLINE column's width.
    private var hasDeadline = false

    /// A row of the table: the id, the state, the time (remaining, or past the end), the deadline.
    private struct TableRow {
        var id: String
        var state: String
        var time: Nanoseconds
        var pastEnd: Bool
        var deadline: Nanoseconds?
        /// The title, escaped; nil when it has none.
        var title: String?

        var remaining: String { (pastEnd ? "+" : "") + CountdownListing.clock(time) }
    }

    /// `json`: a JSON array rather than a table. `write` gets the output in pieces.
    public init(json: Bool, write: @escaping (String) -> Bool = { StandardOutput.write($0, what: ListingWriter.what) }) {
        self.json = json
        self.write = write
        buffer.reserveCapacity(Self.flushBytes + 4096)
    }

    /// Adds countdowns (in id order); false once output cannot be written.
    public func add(_ countdowns: [StoredCountdown], at now: StoreInstant) -> Bool {
        guard !failed else { return false }
        for c in countdowns {
            let state = c.effectiveState(at: now)
            let deadline: Nanoseconds? = state == .paused ? nil : c.wallDeadline(at: now)
            // An overtime countdown past its end: state "overtime", the time past it as the view shows it.
            let listed = c.listedState(at: now)
            if json {
                buffer += count == 0 ? "[\n" : ",\n"
                // The same element as serve's GET /api/countdowns (CountdownCore's CountdownJSON).
                CountdownJSON.appendRecord(c, at: now, to: &buffer)
                if buffer.utf8.count >= Self.flushBytes { flush() }
            } else {
                let pastEnd = c.isPastEnd(at: now)
                let row = TableRow(id: VisibleText.escaped(c.id), state: listed,
                                   time: pastEnd ? c.timePastEnd(at: now) : c.remaining(at: now), pastEnd: pastEnd, deadline: deadline,
                                   title: c.title.map(VisibleText.escaped))
                if row.title != nil { titled = true }
                // Every instant in `CountdownRange` is written in the same number of columns.
                if deadline != nil { hasDeadline = true }
                widths.id = max(widths.id, Self.width(row.id))
                widths.state = max(widths.state, row.state.utf8.count)
                widths.remaining = max(widths.remaining, Self.width(row.remaining))
                if rows.last.map({ $0.count >= Self.rowsPerPage }) ?? true {
                    rows.append([])
                    rows[rows.count - 1].reserveCapacity(Self.rowsPerPage)
                }
                rows[rows.count - 1].append(row)
            }
            count += 1
        }
        return !failed
    }

    /// Writes the rest. Returns false when there was nothing to list (the
    /// command then says so; the JSON is `[]`).
    @discardableResult
    public func finish() -> Bool {
        if json {
            buffer += count == 0 ? "[]\n" : "\n]\n"
            flush()
            return true
        }
        guard !rows.isEmpty else { return false }
        writeTable()
        return true
    }

    private func flush() {
        guard !failed, !buffer.isEmpty else { return }
        if !write(buffer) { failed = true }
        buffer.removeAll(keepingCapacity: true)
    }

    // MARK: Table

    /// The table: columns padded to their widest cell by display width (an id
    /// like 名前 takes four columns), two blanks between them, the deadline last
    /// and unpadded.
    private func writeTable() {
        let header = (id: "ID", state: "STATE", remaining: "REMAINING")
        let widths = (id: max(self.widths.id, Self.width(header.id)), state: max(self.widths.state, Self.width(header.state)),
                      remaining: max(self.widths.remaining, Self.width(header.remaining)))
        // With a TITLE column the deadline is padded too: an ISO 8601 instant, or "-" while paused.
        let deadlineWidth = hasDeadline ? Self.width(CountdownListing.iso8601(0)) : Self.width("DEADLINE")
        let titled = self.titled
        func line(_ id: String, _ state: String, _ remaining: String, _ deadline: String, _ title: String?) {
            Self.pad(id, widths.id, into: &buffer)
            buffer += "  "
            Self.pad(state, widths.state, into: &buffer)
            buffer += "  "
            Self.pad(remaining, widths.remaining, into: &buffer)
            buffer += "  "
            if titled {
                Self.pad(deadline, deadlineWidth, into: &buffer)
                buffer += "  "
                buffer += title ?? ""
            } else {
                buffer += deadline
            }
            buffer += "\n"
            if buffer.utf8.count >= Self.flushBytes { flush() }
        }
        line(header.id, header.state, header.remaining, "DEADLINE", "TITLE")
        for page in rows {
            for row in page {
                guard !failed else { return }
                line(row.id, row.state, row.remaining, row.deadline.map(CountdownListing.iso8601) ?? "-", row.title)
            }
        }
        rows = []
        flush()
    }

    /// Display width, counted without Unicode tables for printable ASCII.
    public static func width(_ text: String) -> Int {
        text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F } ? text.utf8.count : DisplayWidth.of(text)
    }

    private static func pad(_ text: String, _ columns: Int, into out: inout String) {
        out += text
        let missing = columns - width(text)
        if missing > 0 { out += String(repeating: " ", count: missing) }
    }
}

extension ListingWriter {
    /// `cdscript list`: every countdown `store` holds, read in batches and written
    /// as each arrives (`json`: a JSON array, else a table), then each record that
    /// cannot be read named on stderr. Throws `CommandExit(.storeError)` when the
    /// store cannot be read or holds unreadable records.
    public static func list(_ store: SharedStore, json: Bool,
                            write: @escaping (String) -> Bool = { StandardOutput.write($0, what: ListingWriter.what) }) throws(CommandExit) {
        let writer = ListingWriter(json: json, write: write)
        var unreadable: [UnreadableCountdown] = []
        do {
            // Read after connecting (Redis measures its clock there), before the rows.
            let now = try store.now()
            if store.exists {
                try store.persistence.forEachListed(batchSize: batchSize) { batch in
                    unreadable += batch.unreadable
                    return writer.add(batch.countdowns, at: now)
                }
            }
        } catch {
            throw CommandExit.storeFailed(error)
        }
        if !writer.finish(), unreadable.isEmpty {
            _ = write("no stored countdowns in \(store.location)\n")
        }
        // The readable ones are listed above; each unreadable one is named, and
        // the exit status says the store is not whole.
        guard unreadable.isEmpty else {
            for record in unreadable { StandardError.line("cdscript: \(record)") }
            throw CommandExit(.storeError)
        }
    }
}

/// How `cdscript list` (and `watch`, and the change commands) write a
/// countdown's remaining time and deadline; `ListingWriter` writes the listing.
public enum CountdownListing {
    /// `1d 02:03:04.5`, `02:03:04.5`.
    public static func clock(_ ns: Nanoseconds) -> String {
        (ns >= 86_400 * Time.nanosecondsPerSecond ? withDays : withinADay)?.render(ns) ?? "\(Time.seconds(ns))"
    }

    // Parsed once: a listing renders one per row.
    private static let withDays = try? FormatPattern("{d}d {hh}:{mm}:{ss}.{t}")
    private static let withinADay = try? FormatPattern("{hh}:{mm}:{ss}.{t}")

    /// ISO 8601, UTC, to the millisecond (`UTCTimestamp`, the text Foundation's formatter wrote).
    public static func iso8601(_ wall: Nanoseconds) -> String { UTCTimestamp.iso8601(wall) }
}
