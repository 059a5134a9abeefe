import CommandEnding
import CountdownCore
import EventLoop
import SQLiteStore
import TerminalView

/// `watch --bar`: follows the store as `watch` does, and writes one line in the
/// bar's protocol whenever what it shows changes: a countdown changed in the
/// store (its change feed), or the time shown moved on (a tick of this process's
/// scheduler, once a second, aligned to each deadline). A line that would repeat
/// the previous one is not written. Nothing running means nothing scheduled: the
/// loop then sleeps in `poll` until the store changes (or, for i3bar, a click
/// arrives: BarWatch+Clicks.swift).
///
/// With ids, the line holds those countdowns. Without, it holds the one shown
/// first and a count of the others (`BarLead`): its rate is the lead's seconds
/// and the store's changes, whatever the number of countdowns.
public final class BarWatch: SchedulerDelegate {
    let store: SharedStore
    let only: [String]?
    let scheduler: Scheduler
    let bar: BarProtocol
    let format: StatusFormat
    let separator: String
    let critical: Nanoseconds
    /// With ids: the countdowns shown, by id, each once it is stored.
    private var shown: [CountdownID: ShownCountdown] = [:]
    private var records: [CountdownID: StoredCountdown] = [:]
    private var keys: [CountdownID: CountdownKey] = [:]
    private var idsByKey: [CountdownKey: CountdownID] = [:]
    private var lastLine: String?
    private var reportedError: String?
    private(set) var lines = 0
    /// Without ids: the lead and the count of the others.
    private(set) var leader: BarLead?

    /// Shows `only` those ids, in that order (nil: the lead of every stored one),
    /// in `bar`'s protocol, each as `format` says, joined by `separator`; the last
    /// `critical` nanoseconds of a running countdown are critical.
    public init(store: SharedStore, only: [String]?, scheduler: Scheduler, bar: BarProtocol, format: StatusFormat,
                separator: String, critical: Nanoseconds) {
        self.store = store
        self.only = only
        self.scheduler = scheduler
        self.bar = bar
        self.format = format
        self.separator = separator
        self.critical = critical
        if only == nil { leader = BarLead(scheduler: scheduler, now: { try? store.now() }) }
    }

    /// Follows the store's change feed on `loop` (and i3bar's clicks on standard
    /// input), writing a line after each pass, until a signal ends the loop: a bar
    /// never stops reading (the bar restarts it, or the pipe closes). A store that
    /// cannot be followed: exit 6.
    public func follow(on loop: MainLoop) throws(CommandExit) -> MainLoop.Outcome {
        loop.isDone = { false }
        loop.afterPass = { [unowned self] in self.write() }
        if let preamble = bar.preamble { StandardOutput.write(preamble, what: "the bar's header") }
        let feed: CountdownChangeFeed
        do {
            feed = try store.changeFeed(timers: loop)
            // It shows the store its path names now, even one removed or moved over.
            (feed as? SQLiteChangeWatcher)?.followsReplacedFile = true
            try refresh(.unknown)
        } catch {
            throw CommandExit.storeFailed(error)
        }
        if bar == .i3bar { readClicks(on: loop) }
        loop.follow(feed) { [unowned self] changes in
            do {
                try self.refresh(changes)
            } catch {
                self.showError("\(error)")
            }
        }
        return loop.run()
    }

    /// Reads the store again and follows what changed.
    public func refresh(_ changes: CountdownChanges) throws {
        guard changes != .none else { return }
        if let leader { return try refreshLead(leader, changes) }
        // The ids asked for, read together (one transaction, or one `HMGET`): the
        // same cost at 1,000 stored countdowns and at 1,000,000.
        var wanted: [String] = []
        var named: Set<CountdownID> = []
        for id in only ?? [] where changes.contains(id) && named.insert(CountdownID(id)).inserted { wanted.append(id) }
        guard !wanted.isEmpty else { return }
        let results = store.exists ? try store.persistence.loadEach(ids: wanted) : wanted.map { (id: $0, record: Swift.Result<StoredCountdown?, any Error>.success(nil)) }
        let now = try store.now()
        reportedError = nil
        for (name, result) in results {
            let id = CountdownID(name)
            switch result {
            case .success(let record?):
                guard records[id] != record || shown[id] == nil else { continue }
                records[id] = record
                shown[id] = ShownCountdown(record, at: now)
                follow(record, id: id, at: now)
            case .success(nil), .failure:
                if case .failure(let error) = result {
                    guard let unreadable = Self.unreadable(error) else { throw error }
                    showError(unreadable.description)
                }
                stopTicking(id)
                shown[id] = nil
                records[id] = nil
            }
        }
    }

    /// Without ids: reads the ids the store names (at most `StoreWatcher.mostReadOneByOne`,
    /// together), or else the whole listing in batches, each let go before the next;
    /// then finds the lead.
    private func refreshLead(_ leader: BarLead, _ changes: CountdownChanges) throws {
        let now = try store.now()
        if case .ids(let ids) = changes, ids.count <= StoreWatcher.mostReadOneByOne, store.exists {
            for (id, result) in try store.persistence.loadEach(ids: ids.sorted().map(\.string)) {
                switch result {
                case .success(let record): leader.take(CountdownID(id), record, at: now)
                case .failure(let error):
                    guard let unreadable = Self.unreadable(error) else { throw error }
                    showError(unreadable.description)
                }
            }
        } else {
            reportedError = nil
            leader.beginPass()
            do {
                if store.exists {
                    try store.persistence.forEachListed(batchSize: 1000) { batch in
                        for record in batch.countdowns { leader.take(CountdownID(record.id), record, at: now) }
                        for bad in batch.unreadable { showError(bad.description) }
                        return true
                    }
                }
            } catch {
                leader.abandonPass()
                throw error
            }
            leader.endPass()
        }
        leader.settle(at: now)
    }

    /// The record a store could not read, from either store's error.
    private static func unreadable(_ error: any Error) -> UnreadableCountdown? {
        (error as? UnreadableCountdown) ?? (error as? StoreError)?.unreadable
    }

    /// The countdown shown under `id`, if this bar shows it (without ids: follows it).
    func shownCountdown(_ id: CountdownID) -> ShownCountdown? {
        guard let leader else { return shown[id] }
        return (try? store.now()).flatMap { leader.shown(id, at: $0) }
    }

    public func showError(_ message: String) {
        guard reportedError != message else { return }
        reportedError = message
        StandardError.line("cdscript: \(message)")
    }

    /// Ticks a running countdown once a second, aligned to its deadline, so the
    /// line changes when the time shown does.
    private func follow(_ record: StoredCountdown, id: CountdownID, at now: StoreInstant) {
        stopTicking(id)
        guard case .running(let deadline, remaining: _) = record.resumption(at: now) else { return }
        let key = scheduler.start(CountdownSpec(id: record.id, deadline: deadline, every: Time.nanosecondsPerSecond, length: record.total))
        keys[id] = key
        idsByKey[key] = id
        // An overtime countdown ticks on past its end, counting up, as its view does.
        if record.overtime { scheduler.allowOvertime(key, endPassed: record.isPastEnd(at: now)) }
        scheduler.announce(key)
    }

    private func stopTicking(_ id: CountdownID) {
        guard let key = keys.removeValue(forKey: id) else { return }
        idsByKey[key] = nil
        scheduler.cancel(key, reason: .stopped)
    }

    public func countdownDidTick(_ tick: Tick) {
        if let leader { return leader.countdownDidTick(tick) }
        guard let id = idsByKey[tick.key], let old = shown[id] else { return }
        // Below zero: the time past the end of an overtime countdown.
        shown[id] = ShownCountdown(id: old.id, state: tick.remaining < 0 ? .overtime : .running, timeLeft: tick.remaining,
                                   total: old.total, wallEnd: old.wallEnd)
        shown[id]?.title = old.title
    }

    public func countdownDidPassEnd(_ tick: Tick) {
        if let leader { return leader.countdownDidPassEnd(tick) }
        guard let id = idsByKey[tick.key], let old = shown[id] else { return }
        shown[id] = ShownCountdown(id: old.id, state: .overtime, timeLeft: 0, total: old.total, wallEnd: old.wallEnd)
        shown[id]?.title = old.title
    }

    public func countdownDidEnd(_ tick: Tick, reason: EndReason) {
        if let leader { return leader.countdownDidEnd(tick, reason: reason) }
        guard reason == .finished, let id = idsByKey.removeValue(forKey: tick.key), let old = shown[id] else { return }
        keys[id] = nil
        shown[id] = ShownCountdown(id: old.id, state: .finished, timeLeft: 0, total: old.total, wallEnd: old.wallEnd)
        shown[id]?.title = old.title
    }

    /// Writes the line for what is shown now, unless it is the line last written.
    public func write() {
        let now = BootClock().wallNow()
        let items: [BarItem]
        if let leader {
            items = leader.items(format: format, critical: critical, now: now)
        } else {
            // In the order given.
            items = (only ?? []).compactMap { shown[CountdownID($0)] }.map { BarItem($0, format: format, critical: critical, now: now) }
        }
        let line = bar.line(items, separator: separator, first: lines == 0, more: leader?.others ?? 0)
        // The comma that joins i3bar's arrays is no change.
        let content = bar == .i3bar && lines > 0 ? String(line.dropFirst()) : line
        guard content != lastLine else { return }
        lastLine = content
        lines += 1
        StandardOutput.write(line + "\n", what: "the bar's line")
    }
}
