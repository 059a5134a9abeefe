import ArgumentParser
import CountdownCore
import RedisStore

/// What `cdscript status` was asked for, in plain values, and the line it prints.
/// Apart from `StatusCommand` (ArgumentParser's view of the same words) so that
/// a status bar's plain call runs without any of ArgumentParser's property-wrapper
/// types: each one's first use resolves generic metadata by name, which scans
/// every protocol conformance of the statically linked runtime and Foundation
/// (StatusRequest+PlainWords.swift).
struct StatusRequest: Equatable {
    static let commandName = "status"
    static let defaultFormat = StatusFormat.defaultText
    /// Two spaces.
    static let defaultSeparator = "  "

    var stateDir: String?
    var store: String?
    var format = Self.defaultFormat
    var separator = Self.defaultSeparator
    /// `--for`: who reads the line, and so how it is escaped.
    var destination = StatusDestination.text
    var ids: [String] = []
    /// `--json`: the countdowns as `list --json` writes them (`ListingWriter`),
    /// in the order the line shows them.
    var json = false
    /// The --redis-* options (a rediss:// store).
    var tls = RedisTLSSettings()

    func run() throws {
        let template = try StatusFormat(format)
        let store = try StoreOptions.openShared(stateDir: stateDir, store: self.store, tls: tls)
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
                let loaded = store.exists ? try store.glanceEach(ids: ids) : ids.map { ($0, .success(nil)) }
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
            throw failOnStore(error)
        }
        if json {
            let writer = ListingWriter(json: true)
            _ = writer.add(shown.map(\.record), at: now)
            writer.finish()
        } else {
            let line = shown.map { template.render($0.countdown, now: now.wall) }.joined(separator: separator)
            emit(destination.escape(line), what: "the status line")
        }
        for record in unreadable { printError("cdscript: \(record)") }
        for id in missing {
            printError("cdscript: no stored countdown has the id '\(VisibleText.escaped(id))' (in \(store.location))")
        }
        if !unreadable.isEmpty { throw ExitCode(ExitStatus.storeError.rawValue) }
        if !missing.isEmpty { throw ExitCode(ExitStatus.unknownCountdown.rawValue) }
    }
}
