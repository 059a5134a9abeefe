import CountdownCore

/// What `cdscript watch` keeps of the stored countdowns it follows: every id, in
/// byte order, with a compact summary (enough to page, to tell a change and to
/// say whether one still runs), and whole records only for the ids it shows.
/// At 100,000 countdowns that is a few megabytes, whatever the size of a record;
/// a watch that kept every record held about 90 MB (SQLite) and 120 MB (Redis).
public struct WatchIndex {
    /// What a watch knows of one id.
    public enum Entry: Equatable, Sendable {
        case stored(StoredCountdown)
        case unreadable
        /// It was shown, then went from the store.
        case removed
        /// Asked for by id, and not stored.
        case notStored
    }

    /// An entry without its record.
    public struct Summary: Equatable, Sendable {
        public enum Status: UInt8, Sendable { case stored, unreadable, removed, notStored }
        /// Tells one stored record from another: a hash of every field (0 for the other statuses).
        public private(set) var digest: Int
        /// `runsUntil`, `Nanoseconds.min` for nil: 24 bytes a summary, not 32.
        private var until: Nanoseconds
        public private(set) var status: Status

        /// On the boot clock, until when it runs; nil: it does not run; `Nanoseconds.max`:
        /// an overtime countdown, which runs on past its end.
        public var runsUntil: Nanoseconds? { until == .min ? nil : until }

        public init(_ entry: Entry, at now: StoreInstant) {
            switch entry {
            case .stored(let record):
                status = .stored
                digest = Self.digest(record)
                if record.effectiveState(at: now) != .running {
                    until = .min
                } else {
                    until = record.overtime ? .max : now.boot + record.timeLeft(at: now)
                }
            case .unreadable: (status, digest, until) = (.unreadable, 0, .min)
            case .removed: (status, digest, until) = (.removed, 0, .min)
            case .notStored: (status, digest, until) = (.notStored, 0, .min)
            }
        }

        /// True when both stand for the same entry (`runsUntil` is derived from it).
        public func sameEntry(as other: Summary) -> Bool { status == other.status && digest == other.digest }

        private static func digest(_ r: StoredCountdown) -> Int {
            var h = Hasher()
            h.combine(r.state.rawValue)
            h.combine(r.kind.rawValue)
            h.combine(r.wallDeadline)
            h.combine(r.pausedRemaining)
            h.combine(r.every)
            h.combine(r.total)
            h.combine(r.bootID)
            h.combine(r.bootDeadline)
            h.combine(r.updatedAt)
            h.combine(r.overtime)
            return h.finalize()
        }
    }

    /// Every id known, in byte order (the listing's).
    public private(set) var order: [CountdownID] = []
    /// The summary of each id in `order`, at the same index: two arrays, not a
    /// dictionary, which at 100,000 ids took 10 MB and twice that while it grew.
    private var summaries: [Summary] = []
    /// The whole records kept: those of the ids shown.
    private var records: [CountdownID: StoredCountdown] = [:]
    /// The most records kept at once so far: what a test bounds.
    public private(set) var peakRecordsHeld = 0
    /// Records kept now.
    public var recordsHeld: Int { records.count }

    /// During a pass over the whole listing: where it stands in `order`, the last id it
    /// saw, the ids known before that it went past, and, once it met an id not known
    /// before, the new order being built (until then the summaries change in place).
    private var inPass = false
    private var passCursor = 0
    private var passLast: CountdownID?
    private var passGone: [CountdownID] = []
    private var passNew: (order: [CountdownID], summaries: [Summary])?

    public init() {}

    /// Ids known.
    public var count: Int { order.count }

    public func summary(_ id: CountdownID) -> Summary? {
        let i = insertionIndex(id)
        return i < order.count && order[i] == id ? summaries[i] : nil
    }

    /// The entry of `id` as kept: a stored one only when its record is (it is shown);
    /// nil when it is not known or its record is not kept.
    public func entry(_ id: CountdownID) -> Entry? {
        guard let summary = summary(id) else { return nil }
        switch summary.status {
        case .stored: return records[id].map { .stored($0) }
        case .unreadable: return .unreadable
        case .removed: return .removed
        case .notStored: return .notStored
        }
    }

    /// Takes in what `id` is now; `keepRecord` when it is shown. Returns whether it
    /// differs from what was known, and whether the id is new (it is put in order).
    @discardableResult
    public mutating func update(_ id: CountdownID, _ entry: Entry, at now: StoreInstant,
                                keepRecord: Bool) -> (changed: Bool, added: Bool) {
        let summary = Summary(entry, at: now)
        if keepRecord, case .stored(let record) = entry {
            records[id] = record
            peakRecordsHeld = max(peakRecordsHeld, records.count)
        } else if !records.isEmpty {
            records[id] = nil
        }
        let before = inPass ? seeInPass(id, summary) : put(id, summary)
        return (before.map { !$0.sameEntry(as: summary) } ?? true, before == nil)
    }

    /// Sets the summary of `id`, in order; returns the one it replaced.
    private mutating func put(_ id: CountdownID, _ summary: Summary) -> Summary? {
        let i = insertionIndex(id)
        if i < order.count && order[i] == id {
            defer { summaries[i] = summary }
            return summaries[i]
        }
        order.insert(id, at: i)
        summaries.insert(summary, at: i)
        return nil
    }

    /// Keeps the records of `shown` alone.
    public mutating func keepRecords(of shown: [CountdownID]) {
        guard records.count > 0 else { return }
        let kept = Set(shown)
        for id in records.keys where !kept.contains(id) { records[id] = nil }
    }

    /// The ids of `shown` that are stored and whose records are not kept: what to read
    /// (together) to show them.
    public func missingRecords(of shown: [CountdownID]) -> [CountdownID] {
        shown.filter { summary($0)?.status == .stored && records[$0] == nil }
    }

    /// True when some id known runs at `now` (on the boot clock).
    public func anyRunning(at now: Nanoseconds) -> Bool {
        summaries.contains { ($0.runsUntil ?? .min) > now }
    }

    // MARK: A pass over the whole listing

    /// Starts a pass: the listing's ids follow by `update`, in byte order.
    public mutating func beginPass() {
        inPass = true
        passCursor = 0
        passLast = nil
        passGone = []
        passNew = nil
    }

    /// Ends a pass; returns the ids known before, not seen in it, that were stored or
    /// unreadable (the caller marks them removed). The order is the union of both.
    public mutating func endPass() -> [CountdownID] {
        guard inPass else { return [] }
        while passCursor < order.count { passSkip() }
        if let built = passNew {
            order = built.order
            summaries = built.summaries
        }
        inPass = false
        passNew = nil
        passLast = nil
        let gone = passGone
        passGone = []
        return gone
    }

    private mutating func seeInPass(_ id: CountdownID, _ summary: Summary) -> Summary? {
        // Out of byte order (a listing never should be): the rest of the pass is taken
        // in as outside one (and tells no ids that went).
        if let last = passLast, !(last < id) {
            if var built = passNew {
                built.order += order[passCursor...]
                built.summaries += summaries[passCursor...]
                (order, summaries) = (built.order, built.summaries)
                passNew = nil
            }
            passCursor = order.count
            inPass = false
            return put(id, summary)
        }
        passLast = id
        while passCursor < order.count, order[passCursor] < id { passSkip() }
        if passCursor < order.count, order[passCursor] == id {
            let before = summaries[passCursor]
            if passNew != nil {
                passNew!.order.append(id)
                passNew!.summaries.append(summary)
            } else {
                summaries[passCursor] = summary
            }
            passCursor += 1
            return before
        }
        if passNew == nil {
            passNew = (Array(order[..<passCursor]), Array(summaries[..<passCursor]))
        }
        passNew!.order.append(id)
        passNew!.summaries.append(summary)
        return nil
    }

    /// An id known before that the pass went past without seeing.
    private mutating func passSkip() {
        let id = order[passCursor]
        let summary = summaries[passCursor]
        passCursor += 1
        if passNew != nil {
            passNew!.order.append(id)
            passNew!.summaries.append(summary)
        }
        switch summary.status {
        case .stored, .unreadable: passGone.append(id)
        case .removed, .notStored: break
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
}
