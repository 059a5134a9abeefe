import CountdownCore
import SQLiteStore
import TerminalView

/// What `cdscript watch` knows of one id it shows.
public typealias WatchedEntry = WatchIndex.Entry

/// Follows the stored countdowns a watch shows, with work in proportion to what
/// is shown rather than to what is stored:
///
/// - In the terminal, a page of rows (`WatchPage`): only the running countdowns
///   on it tick on this process's scheduler (aligned to their stored deadlines)
///   and only its rows are formatted and drawn. Only its records are kept; of the
///   rest, a compact summary (`WatchIndex`), and a page's records are read together
///   when it comes on screen.
/// - In plain output, a line when a countdown appears, changes (append, pause,
///   resume), ends or goes; no line per tick (unless `--ticks`). A running
///   countdown is on the scheduler for its end alone.
///
/// A change the store names by id re-reads that id; a change it cannot name
/// re-reads the listing (in batches, each let go before the next) and shows the differences.
public final class StoreWatcher: SchedulerDelegate {
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
    /// Where plain output's lines go, a pass's worth at a time.
    let plainOutput: (String) -> Void

    /// Every id shown, in byte order, summed up; the records of the page's rows.
    private(set) var index = WatchIndex()
    private var order: [CountdownID] { index.order }
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
    /// Plain output: the last line's text per id, as a hash (the text itself would grow with the store).
    private var lastPlain: [CountdownID: Int] = [:]
    private var reportedError: String?

    /// A change naming more ids than this re-reads the listing instead.
    public static let mostReadOneByOne = 256
    private static let headerID = " header"
    private static let statusID = " status"
    private static func rowID(_ row: Int) -> String { " row \(row)" }

    /// Shows `only` those ids (nil: every stored one) that `filter` admits, on
    /// `view`; `ticks`: plain output prints every tick too; `terminalRows`: the
    /// terminal's height, read at each layout (ignored in plain output);
    /// `plainOutput`: where plain output's lines go (standard output).
    public init(store: SharedStore, only: Set<CountdownID>?, filter: WatchFilter, ticks: Bool, scheduler: Scheduler,
                view: ViewController, terminalRows: (() -> Int)?,
                plainOutput: @escaping (String) -> Void = { StandardOutput.write($0, what: "the view's lines") }) {
        self.plainOutput = plainOutput
        self.store = store
        self.only = only
        self.filter = filter
        self.ticks = ticks
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
    public func refresh(_ changes: CountdownChanges) throws {
        guard changes != .none else { return }
        let now = try store.now()
        var changed: [(CountdownID, WatchedEntry)] = []
        if let only {
            // A few ids, named: each read alone.
            for id in only.sorted() where changes.contains(id.string) && filter.matches(id.string) {
                if let entry = try read(id) { changed.append((id, entry)) }
            }
        } else if case .ids(let ids) = changes, ids.count <= Self.mostReadOneByOne {
            for id in ids.sorted() where filter.matches(id.string) {
                if let entry = try read(id) { changed.append((id, entry)) }
            }
        } else {
            return try readAll(at: now)
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
        switch index.summary(id)?.status {
        case .stored, .unreadable: return .removed
        case .removed: return .removed
        case .notStored, nil: return only != nil ? .notStored : nil
        }
    }

    /// The record a store could not read, from either store's error.
    private static func unreadable(_ error: any Error) -> UnreadableCountdown? {
        (error as? UnreadableCountdown) ?? (error as? StoreError)?.unreadable
    }

    /// Every matching id, read from the listing in batches, each batch shown and
    /// let go before the next is read; then the ids that went are shown removed.
    private func readAll(at now: StoreInstant) throws {
        // No store at all (its folder removed, its file gone): the terminal shows
        // nothing stored, not rows of what a file that is gone held. Plain output
        // says, below, that each countdown went.
        if !store.exists, !view.isPlain {
            for id in Array(keys.keys) { stop(id) }
            index = WatchIndex()
            reportedError = nil
            layOut(at: now)
            return
        }
        var problems: [String] = []
        var layOutNeeded = false
        var redraw: [CountdownID] = []
        index.beginPass()
        do {
            if store.exists {
                try store.persistence.forEachListed(batchSize: 1000) { batch in
                    var changed: [(CountdownID, WatchedEntry)] = []
                    for record in batch.countdowns where filter.matches(record.id) {
                        changed.append((CountdownID(record.id), .stored(record)))
                    }
                    for bad in batch.unreadable where filter.matches(bad.id) {
                        changed.append((CountdownID(bad.id), .unreadable))
                        problems.append(bad.description)
                    }
                    // The listing is in id order; unreadable ones were appended after the batch's readable ones.
                    changed.sort { $0.0 < $1.0 }
                    for (id, entry) in changed {
                        let (differs, added) = index.update(id, entry, at: now, keepRecord: rowOf[id] != nil)
                        if added { layOutNeeded = true }
                        if differs { shownChanged(id, entry, at: now, redraw: &redraw) }
                    }
                    return true
                }
            }
        } catch {
            _ = index.endPass()
            throw error
        }
        for id in index.endPass() {
            index.update(id, .removed, at: now, keepRecord: false)
            shownChanged(id, .removed, at: now, redraw: &redraw)
        }
        // An unreadable record is named (once) and shown as such; the others go on.
        if problems.isEmpty { reportedError = nil } else { showError(problems.joined(separator: "\ncdscript: ")) }
        finishApplying(redraw, layOut: layOutNeeded, at: now)
    }

    public func showError(_ message: String) {
        guard reportedError != message else { return }
        reportedError = message
        StandardError.line("cdscript: \(message)")
    }

    // MARK: Showing

    private func apply(_ changed: [(CountdownID, WatchedEntry)], at now: StoreInstant) {
        var layOutNeeded = false
        var redraw: [CountdownID] = []
        for (id, entry) in changed {
            let (differs, added) = index.update(id, entry, at: now, keepRecord: rowOf[id] != nil)
            if added { layOutNeeded = true }
            if differs { shownChanged(id, entry, at: now, redraw: &redraw) }
        }
        finishApplying(redraw, layOut: layOutNeeded, at: now)
    }

    /// An entry changed: plain output shows it now; the terminal redraws its row
    /// (when it has one) once every change is in.
    private func shownChanged(_ id: CountdownID, _ entry: WatchedEntry, at now: StoreInstant, redraw: inout [CountdownID]) {
        if view.isPlain {
            showPlain(id, entry, at: now)
        } else if rowOf[id] != nil {
            redraw.append(id)
        }
    }

    private func finishApplying(_ redraw: [CountdownID], layOut layOutNeeded: Bool, at now: StoreInstant) {
        guard !view.isPlain else { return }
        if layOutNeeded {
            layOut(at: now)
        } else {
            for id in redraw where rowOf[id] != nil { showRow(id, at: now, restart: true) }
        }
    }

    /// Terminal: fills the page's rows again (the terminal's size or the ids changed,
    /// or the page moved), starting the countdowns that came onto it and stopping
    /// those that left it.
    public func layOut(at now: StoreInstant? = nil) {
        guard let terminalRows else { return }
        page.fit(terminalRows: terminalRows(), count: order.count)
        let shown = Array(order[page.shown(count: order.count)])
        let now = now ?? (try? store.now())
        for id in rowIDs where !shown.contains(id) { stop(id) }
        rowIDs = shown
        rowOf = Dictionary(uniqueKeysWithValues: shown.enumerated().map { ($1, $0) })
        index.keepRecords(of: shown)
        if let now { readRecords(of: shown, at: now) }
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

    /// Terminal: reads the records of the rows shown that are not kept, together
    /// (one transaction, or one `HMGET`).
    private func readRecords(of shown: [CountdownID], at now: StoreInstant) {
        let missing = index.missingRecords(of: shown)
        guard !missing.isEmpty, store.exists else { return }
        do {
            for (id, result) in try store.persistence.loadEach(ids: missing.map(\.string)) {
                let entry: WatchedEntry
                switch result {
                case .success(let record?): entry = .stored(record)
                case .success(nil): entry = .removed
                case .failure(let error):
                    guard let unreadable = Self.unreadable(error) else { throw error }
                    showError(unreadable.description)
                    entry = .unreadable
                }
                index.update(CountdownID(id), entry, at: now, keepRecord: true)
            }
        } catch {
            showError("\(error)")
        }
    }

    /// Terminal: a key that moves the page. Returns false for other keys.
    public func press(_ key: String) -> Bool {
        guard terminalRows != nil else { return false }
        let before = page
        guard page.press(key, count: order.count) else { return false }
        if page != before { layOut() }
        return true
    }

    /// Terminal: shows `id`'s row as the record says at `now`; a running one
    /// (re)starts ticking when `restart`.
    private func showRow(_ id: CountdownID, at now: StoreInstant, restart: Bool) {
        guard let entry = index.entry(id) else { return }
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

    public func countdownDidTick(_ tick: Tick) {
        guard let id = idsByKey[tick.key] else { return }
        if tick.remaining < 0 { show(id, "overtime", nil, past: -tick.remaining) } else { show(id, "running", tick.remaining) }
    }

    public func countdownDidPassEnd(_ tick: Tick) {
        guard let id = idsByKey[tick.key] else { return }
        show(id, "overtime", nil, past: 0)
    }

    public func countdownDidEnd(_ tick: Tick, reason: EndReason) {
        guard reason == .finished, let id = idsByKey.removeValue(forKey: tick.key) else { return }
        keys[id] = nil
        show(id, "finished", 0)
    }

    /// True when a countdown shown (on any page) is still running at `now`.
    public func anyRunning(at now: StoreInstant) -> Bool { index.anyRunning(at: now.boot) }

    // MARK: Output

    /// `past`: the time past the end of an overtime countdown, shown as `+time`.
    private func show(_ id: CountdownID, _ state: String, _ remaining: Nanoseconds?, past: Nanoseconds? = nil) {
        let time = past.map { "  +" + CountdownListing.clock($0) } ?? remaining.map { "  " + CountdownListing.clock($0) } ?? ""
        if view.isPlain {
            // The same line twice says nothing new (a countdown that ended here, then
            // its record marked finished by the process that ran it).
            let text = state + time
            guard lastPlain.updateValue(text.hashValue, forKey: id) != text.hashValue else { return }
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
    public func flush() {
        guard !plainBuffer.isEmpty else { return }
        plainOutput(plainBuffer)
        plainBuffer.removeAll(keepingCapacity: true)
    }
}
