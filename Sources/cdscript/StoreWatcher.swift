import CountdownCore
import SQLiteStore
import TerminalView

/// What `cdscript watch` knows of one id it shows.
enum WatchedEntry: Equatable {
    case stored(StoredCountdown)
    case unreadable
    /// It was shown, then went from the store.
    case removed
    /// Asked for by id, and not stored.
    case notStored
}

/// Follows the stored countdowns a watch shows, with work in proportion to what
/// is shown rather than to what is stored:
///
/// - In the terminal, a page of rows (`WatchPage`): only the running countdowns
///   on it tick on this process's scheduler (aligned to their stored deadlines)
///   and only its rows are formatted and drawn. The rest are records in memory.
/// - In plain output, a line when a countdown appears, changes (append, pause,
///   resume), ends or goes; no line per tick (unless `--ticks`). A running
///   countdown is on the scheduler for its end alone.
///
/// A change the store names by id re-reads that id; a change it cannot name
/// re-reads the listing (in batches) and shows the differences.
final class StoreWatcher: SchedulerDelegate {
    let store: SharedStore
    /// Keyed by bytes: ids that differ only in Unicode normal form are two countdowns.
    let only: Set<CountdownID>?
    let filter: WatchFilter
    let scheduler: Scheduler
    let view: ViewController
    /// Plain output: a line per tick too.
    let ticks: Bool
    /// The terminal's rows (for the page); nil in plain output.
    let terminalRows: (() -> Int)?

    private var entries: [CountdownID: WatchedEntry] = [:]
    /// Every id in `entries`, in byte order (the listing's).
    private var order: [CountdownID] = []
    private(set) var page = WatchPage()
    /// The scheduler's countdowns: those on the page (terminal), or all running ones (plain).
    private var keys: [CountdownID: CountdownKey] = [:]
    private var idsByKey: [CountdownKey: CountdownID] = [:]
    /// Terminal: the id on each row of the page, and the row of each.
    private var rowIDs: [CountdownID] = []
    private var rowOf: [CountdownID: Int] = [:]
    /// Row elements made so far (they are reused from page to page).
    private var rowElements = 0
    /// Plain output waiting for the end of the pass (one write for many lines).
    private var plainBuffer = ""
    /// Plain output: the last line's text per id.
    private var lastPlain: [CountdownID: String] = [:]
    private var reportedError: String?

    /// A change naming more ids than this re-reads the listing instead.
    static let mostReadOneByOne = 256
    private static let headerID = " header"
    private static let statusID = " status"
    private static func rowID(_ row: Int) -> String { " row \(row)" }

    init(store: SharedStore, only: Set<CountdownID>?, selection: WatchSelectionOptions, scheduler: Scheduler,
         view: ViewController, terminalRows: (() -> Int)?) {
        self.store = store
        self.only = only
        self.filter = selection.filter
        self.ticks = selection.ticks
        self.scheduler = scheduler
        self.view = view
        self.terminalRows = view.isPlain ? nil : terminalRows
        if !view.isPlain {
            _ = try? view.add(.label, id: Self.headerID, fields: [("text", .string("cdscript watch: \(store.location)")), ("style", .string("bold"))])
            // Under the header, so that rows made later (a taller terminal) stay below it.
            _ = try? view.add(.label, id: Self.statusID, fields: [("text", .string(page.status(count: 0, filter: filter))), ("style", .string("dim"))])
        }
    }

    // MARK: Reading the store

    /// Reads what may have changed and shows the differences.
    func refresh(_ changes: CountdownChanges) throws {
        guard changes != .none else { return }
        let now = try store.now()
        var changed: [(CountdownID, WatchedEntry)] = []
        if let only {
            // A few ids, named: each read alone.
            for id in only.sorted() where changes.contains(id.string) && filter.matches(id.string) {
                if let entry = try read(id), entry != entries[id] { changed.append((id, entry)) }
            }
        } else if case .ids(let ids) = changes, ids.count <= Self.mostReadOneByOne {
            for id in ids.sorted() where filter.matches(id.string) {
                if let entry = try read(id), entry != entries[id] { changed.append((id, entry)) }
            }
        } else {
            changed = try readAll()
        }
        apply(changed, at: now)
    }

    /// What `id` is now; nil when it is not stored and was never shown.
    private func read(_ id: CountdownID) throws -> WatchedEntry? {
        let record: StoredCountdown?
        do {
            record = store.exists ? try store.persistence.load(id: id.string) : nil
        } catch {
            guard let unreadable = Self.unreadable(error) else { throw error }
            showError(unreadable.description)
            return .unreadable
        }
        if let record { return .stored(record) }
        switch entries[id] {
        case .stored, .unreadable: return .removed
        case .removed: return .removed
        case .notStored, nil: return only != nil ? .notStored : nil
        }
    }

    /// The record a store could not read, from either store's error.
    private static func unreadable(_ error: any Error) -> UnreadableCountdown? {
        (error as? UnreadableCountdown) ?? (error as? StoreError)?.unreadable
    }

    /// Every matching id, read from the listing in batches; returns those that differ.
    private func readAll() throws -> [(CountdownID, WatchedEntry)] {
        var fresh: [CountdownID: WatchedEntry] = [:]
        var problems: [String] = []
        if store.exists {
            try store.persistence.forEachListed(batchSize: 1000) { batch in
                for record in batch.countdowns where filter.matches(record.id) {
                    fresh[CountdownID(record.id)] = .stored(record)
                }
                for bad in batch.unreadable where filter.matches(bad.id) {
                    fresh[CountdownID(bad.id)] = .unreadable
                    problems.append(bad.description)
                }
                return true
            }
        }
        // An unreadable record is named (once) and shown as such; the others go on.
        if problems.isEmpty { reportedError = nil } else { showError(problems.joined(separator: "\ncdscript: ")) }
        var changed: [(CountdownID, WatchedEntry)] = []
        for (id, entry) in fresh where entries[id] != entry { changed.append((id, entry)) }
        for (id, entry) in entries where fresh[id] == nil {
            switch entry {
            case .stored, .unreadable: changed.append((id, .removed))
            case .removed, .notStored: break
            }
        }
        return changed.sorted { $0.0 < $1.0 }
    }

    func showError(_ message: String) {
        guard reportedError != message else { return }
        reportedError = message
        printError("cdscript: \(message)")
    }

    // MARK: Showing

    private func apply(_ changed: [(CountdownID, WatchedEntry)], at now: StoreInstant) {
        var added: [CountdownID] = []
        for (id, entry) in changed {
            if entries.updateValue(entry, forKey: id) == nil { added.append(id) }
        }
        if added.count > 64 {
            order = entries.keys.sorted()
        } else {
            for id in added { order.insert(id, at: insertionIndex(id)) }
        }
        if view.isPlain {
            for (id, entry) in changed { showPlain(id, entry, at: now) }
            return
        }
        if !added.isEmpty {
            layOut(at: now)
        } else {
            for (id, _) in changed where rowOf[id] != nil { showRow(id, at: now, restart: true) }
        }
    }

    private func insertionIndex(_ id: CountdownID) -> Int {
        var low = 0, high = order.count
        while low < high {
            let mid = (low + high) / 2
            if order[mid] < id { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// Terminal: fills the page's rows again (the terminal's size or the ids changed,
    /// or the page moved), starting the countdowns that came onto it and stopping
    /// those that left it.
    func layOut(at now: StoreInstant? = nil) {
        guard let terminalRows else { return }
        page.fit(terminalRows: terminalRows(), count: order.count)
        let shown = Array(order[page.shown(count: order.count)])
        let now = now ?? (try? store.now())
        for id in rowIDs where !shown.contains(id) { stop(id) }
        rowIDs = shown
        rowOf = Dictionary(uniqueKeysWithValues: shown.enumerated().map { ($1, $0) })
        // Row elements are made once and kept: rows the page does not fill are blank.
        while rowElements < shown.count {
            _ = try? view.add(.label, id: Self.rowID(rowElements), fields: [("text", .string(""))])
            rowElements += 1
        }
        for row in shown.count..<rowElements { setRow(row, "") }
        if let now {
            for id in shown { showRow(id, at: now, restart: keys[id] == nil) }
        }
        try? view.set(Self.statusID, fields: [("text", .string(page.status(count: order.count, filter: filter)))])
    }

    /// Terminal: a key that moves the page. Returns false for other keys.
    func press(_ key: String) -> Bool {
        guard terminalRows != nil else { return false }
        let before = page
        guard page.press(key, count: order.count) else { return false }
        if page != before { layOut() }
        return true
    }

    /// Terminal: shows `id`'s row as the record says at `now`; a running one
    /// (re)starts ticking when `restart`.
    private func showRow(_ id: CountdownID, at now: StoreInstant, restart: Bool) {
        guard let entry = entries[id] else { return }
        if case .stored(let record) = entry {
            // A (re)started countdown's first tick draws its row at once.
            if restart || keys[id] == nil {
                start(id, record, at: now)
                if keys[id] != nil { return }
            }
            switch record.resumption(at: now) {
            case .finished: show(id, "finished", 0)
            case .paused(let remaining) where remaining < 0: show(id, "paused", nil, past: -remaining)
            case .paused(let remaining): show(id, "paused", remaining)
            case .running(_, let remaining) where remaining < 0: show(id, "overtime", nil, past: -remaining)
            case .running(_, let remaining): show(id, "running", remaining)
            }
        } else {
            stop(id)
            show(id, Self.text(entry), nil)
        }
    }

    /// Plain output: one line for the change; a running countdown goes on the
    /// scheduler for its end (and its ticks, with `--ticks`).
    private func showPlain(_ id: CountdownID, _ entry: WatchedEntry, at now: StoreInstant) {
        guard case .stored(let record) = entry else {
            stop(id)
            show(id, Self.text(entry), nil)
            return
        }
        // A running one's first tick prints its line.
        start(id, record, at: now)
        switch record.resumption(at: now) {
        case .finished: show(id, "finished", 0)
        case .paused(let remaining) where remaining < 0: show(id, "paused", nil, past: -remaining)
        case .paused(let remaining): show(id, "paused", remaining)
        case .running: break
        }
    }

    private static func text(_ entry: WatchedEntry) -> String {
        switch entry {
        case .stored(let record): record.state.rawValue
        case .unreadable: "unreadable"
        case .removed: "removed"
        case .notStored: "not stored"
        }
    }

    // MARK: The scheduler

    private func start(_ id: CountdownID, _ record: StoredCountdown, at now: StoreInstant) {
        stop(id)
        guard case .running(let deadline, _) = record.resumption(at: now) else { return }
        let key = scheduler.start(id: nil, deadline: deadline, every: record.every, wantsTicks: !view.isPlain || ticks,
                                  length: record.total, context: 0)
        keys[id] = key
        idsByKey[key] = id
        // An overtime countdown runs on past its end, as in the processes that run it.
        if record.overtime { _ = scheduler.allowOvertime(key, endPassed: record.isPastEnd(at: now)) }
        // Queues its ticks (or its end alone) and fires the first one now.
        scheduler.announce(key, to: self)
    }

    private func stop(_ id: CountdownID) {
        guard let key = keys.removeValue(forKey: id) else { return }
        idsByKey[key] = nil
        scheduler.cancel(key, reason: .stopped)
    }

    func countdownDidTick(_ tick: Tick) {
        guard let id = idsByKey[tick.key] else { return }
        if tick.remaining < 0 { show(id, "overtime", nil, past: -tick.remaining) } else { show(id, "running", tick.remaining) }
    }

    func countdownDidPassEnd(_ tick: Tick) {
        guard let id = idsByKey[tick.key] else { return }
        show(id, "overtime", nil, past: 0)
    }

    func countdownDidEnd(_ tick: Tick, reason: EndReason) {
        guard reason == .finished, let id = idsByKey.removeValue(forKey: tick.key) else { return }
        keys[id] = nil
        show(id, "finished", 0)
    }

    /// True when a countdown shown (on any page) is still running at `now`.
    func anyRunning(at now: StoreInstant) -> Bool {
        entries.values.contains { entry in
            if case .stored(let record) = entry { return record.effectiveState(at: now) == .running }
            return false
        }
    }

    // MARK: Output

    /// `past`: the time past the end of an overtime countdown, shown as `+time`.
    private func show(_ id: CountdownID, _ state: String, _ remaining: Nanoseconds?, past: Nanoseconds? = nil) {
        let time = past.map { "  +" + CountdownListing.clock($0) } ?? remaining.map { "  " + CountdownListing.clock($0) } ?? ""
        if view.isPlain {
            // The same line twice says nothing new (a countdown that ended here, then
            // its record marked finished by the process that ran it).
            let text = state + time
            guard lastPlain.updateValue(text, forKey: id) != text else { return }
            plainBuffer += PlainLine.printable("\(VisibleText.escaped(id.string)): \(text)")
            plainBuffer += "\n"
            if plainBuffer.utf8.count >= 64 * 1024 { flush() }
        } else if let row = rowOf[id] {
            setRow(row, "\(VisibleText.escaped(id.string))  \(state)\(time)")
        }
    }

    private func setRow(_ row: Int, _ text: String) {
        try? view.set(Self.rowID(row), fields: [("text", .string(text))])
    }

    /// Writes the plain lines gathered in this pass of the run loop.
    func flush() {
        guard !plainBuffer.isEmpty else { return }
        StandardOutput.write(plainBuffer, what: "the view's lines")
        plainBuffer.removeAll(keepingCapacity: true)
    }
}
