import CommandEnding
import CountdownCore
import RedisStore
import TerminalView

/// What `cdscript status` was asked for, in plain values, and the line it prints.
/// Apart from `StatusCommand` (ArgumentParser's view of the same words) so that
/// a status bar's plain call runs without any of ArgumentParser's property-wrapper
/// types: each one's first use resolves generic metadata by name, which scans
/// every protocol conformance of the statically linked runtime and Foundation
/// (StatusRequest+PlainWords.swift).
public struct StatusRequest: Equatable, Sendable {
    public static let commandName = "status"
    public static let defaultFormat = StatusFormat.defaultText
    /// Two spaces.
    public static let defaultSeparator = "  "

    public var stateDir: String?
    public var store: String?
    public var format = Self.defaultFormat
    public var separator = Self.defaultSeparator
    /// `--for`: who reads the line, and so how it is escaped.
    public var destination = StatusDestination.text
    public var ids: [String] = []
    /// `--json`: the countdowns as `list --json` writes them (`ListingWriter`),
    /// in the order the line shows them.
    public var json = false
    /// The --redis-* options (a rediss:// store).
    public var tls = RedisTLSSettings()

    public init(stateDir: String? = nil, store: String? = nil, format: String = Self.defaultFormat, separator: String = Self.defaultSeparator,
                destination: StatusDestination = .text, ids: [String] = [], json: Bool = false, tls: RedisTLSSettings = RedisTLSSettings()) {
        self.stateDir = stateDir
        self.store = store
        self.format = format
        self.separator = separator
        self.destination = destination
        self.ids = ids
        self.json = json
        self.tls = tls
    }

    /// Reads the store once and prints the line (or the JSON); `journalSetAside`
    /// is called when a Redis outage journal that cannot be read is set aside.
    /// Exit 7 when an id asked for is not stored, 6 when a record cannot be read.
    public func show(journalSetAside: @escaping () -> Void = {}) throws(CommandExit) {
        let template: StatusFormat
        do { template = try StatusFormat(format) } catch {
            StandardError.line("cdscript: --format: \(error)")
            throw CommandExit(.usage)
        }
        try show(on: try StoreLocation(stateDir: stateDir, store: self.store, tls: tls).open(journalSetAside: journalSetAside), template: template)
    }

    /// The line (or the JSON) for what `store` holds, given to `write` (nil: standard output).
    func show(on store: SharedStore, template: StatusFormat, write: ((String) -> Bool)? = nil) throws(CommandExit) {
        let shown: [(record: StoredCountdown, countdown: ShownCountdown)]
        var missing: [String] = []
        var unreadable: [UnreadableCountdown] = []
        let now: StoreInstant
        do {
            if ids.isEmpty {
                let listing = store.exists ? try store.glanceListing() : StoredCountdownListing(countdowns: [])
                now = try store.now()
                shown = listing.countdowns.map { (record: $0, countdown: ShownCountdown($0, at: now)) }
                    .filter { $0.countdown.state != .finished }
                    .sorted { ShownCountdown.soonestFirst($0.countdown, $1.countdown) }
            } else {
                // Only the countdowns asked for are read: a bar's call costs the
                // same at a thousand stored as at a million.
                let loaded = store.exists ? try store.glanceEach(ids: ids) : ids.map { ($0, LoadedCountdown.success(nil)) }
                now = try store.now()
                var found: [(record: StoredCountdown, countdown: ShownCountdown)] = []
                for (id, result) in loaded {
                    switch result {
                    case .success(let record?):
                        found.append((record: record, countdown: ShownCountdown(record, at: now)))
                    case .success(nil):
                        missing.append(id)
                    case .failure(let error):
                        guard let record = unreadableRecord(in: error) else { throw error }
                        unreadable.append(record)
                    }
                }
                shown = found
            }
        } catch {
            throw CommandExit.storeFailed(error)
        }
        if json {
            let writer = write.map { ListingWriter(json: true, write: $0) } ?? ListingWriter(json: true)
            _ = writer.add(shown.map(\.record), at: now)
            writer.finish()
        } else {
            let line = shown.map { template.render($0.countdown, now: now.wall) }.joined(separator: separator)
            let text = destination.escape(line) + "\n"
            _ = write?(text) ?? StandardOutput.write(text, what: "the status line")
        }
        for record in unreadable { StandardError.line("cdscript: \(record)") }
        for id in missing {
            StandardError.line("cdscript: no stored countdown has the id '\(VisibleText.escaped(id))' (in \(store.location))")
        }
        if !unreadable.isEmpty { throw CommandExit(.storeError) }
        if !missing.isEmpty { throw CommandExit(.unknownCountdown) }
    }
}
