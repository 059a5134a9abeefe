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
        public var status: Status
        /// Tells one stored record from another: a hash of every field (0 for the other statuses).
        public var digest: Int
        /// On the boot clock, until when it runs; nil: it does not run; `Nanoseconds.max`:
        /// an overtime countdown, which runs on past its end.
        public var runsUntil: Nanoseconds?

        public init(_ entry: Entry, at now: StoreInstant) {
            switch entry {
            case .stored(let record):
                status = .stored
                digest = Self.digest(record)
                if record.effectiveState(at: now) != .running {
                    runsUntil = nil
                } else {
                    runsUntil = record.overtime ? .max : now.boot + record.timeLeft(at: now)
                }
            case .unreadable: (status, digest, runsUntil) = (.unreadable, 0, nil)
            case .removed: (status, digest, runsUntil) = (.removed, 0, nil)
            case .notStored: (status, digest, runsUntil) = (.notStored, 0, nil)
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

    private var summaries: [CountdownID: Summary] = [:]
    /// Every id known, in byte order (the listing's).
    public private(set) var order: [CountdownID] = []
    /// The whole records kept: those of the ids shown.
    private var records: [CountdownID: StoredCountdown] = [:]
    /// The most records kept at once so far: what a test bounds.
    public private(set) var peakRecordsHeld = 0
    /// Records kept now.
    public var recordsHeld: Int { records.count }

    /// The ids in a pass over the whole listing, in order, and where it stands in the ids known before.
    private var passOrder: [CountdownID]?
    private var passBefore: [CountdownID] = []
    private var passCursor = 0
    private var passGone: [CountdownID] = []

    public init() {}

    /// Ids known.
    public var count: Int { order.count }

    public func summary(_ id: CountdownID) -> Summary? { summaries[id] }

    /// The entry of `id` as kept: a stored one only when its record is (it is shown);
    /// nil when it is not known or its record is not kept.
    public func entry(_ id: CountdownID) -> Entry? {
        guard let summary = summaries[id] else { return nil }
        switch summary.status {
        case .stored: return records[id].map { .stored($0) }
        case .unreadable: return .unreadable
        case .removed: return .removed
        case .notStored: return .notStored
        }
    }

    /// Takes in what `id` is now; `keepRecord` when it is shown. Returns whether it
    /// differs from what was known, and whether the id is new (it is put in order,
    /// or, during a pass, at the pass's end).
    @discardableResult
    public mutating func update(_ id: CountdownID, _ entry: Entry, at now: StoreInstant,
                                keepRecord: Bool) -> (changed: Bool, added: Bool) {
        let summary = Summary(entry, at: now)
        let before = summaries.updateValue(summary, forKey: id)
        if keepRecord, case .stored(let record) = entry {
            records[id] = record
            peakRecordsHeld = max(peakRecordsHeld, records.count)
        } else {
            records[id] = nil
        }
        if passOrder != nil { seeInPass(id) } else if before == nil { order.insert(id, at: insertionIndex(id)) }
        return (before.map { !$0.sameEntry(as: summary) } ?? true, before == nil)
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
        shown.filter { summaries[$0]?.status == .stored && records[$0] == nil }
    }

    /// True when some id known runs at `now` (on the boot clock).
    public func anyRunning(at now: Nanoseconds) -> Bool {
        summaries.values.contains { ($0.runsUntil ?? .min) > now }
    }

    // MARK: A pass over the whole listing

    /// Starts a pass: the listing's ids follow by `update`, in byte order.
    public mutating func beginPass() {
        passOrder = []
        passOrder?.reserveCapacity(order.count)
        passBefore = order
        passCursor = 0
        passGone = []
    }

    /// Ends a pass; returns the ids known before, not seen in it, that were stored or
    /// unreadable (the caller marks them removed). The order is the union of both.
    public mutating func endPass() -> [CountdownID] {
        guard passOrder != nil else { return [] }
        while passCursor < passBefore.count { passSkip() }
        var merged = passOrder ?? []
        // A listing out of byte order (it never should be) still ends in order.
        if zip(merged, merged.dropFirst()).contains(where: { !($0 < $1) }) {
            merged = Array(Set(merged)).sorted()
        }
        order = merged
        passOrder = nil
        passBefore = []
        let gone = passGone
        passGone = []
        return gone
    }

    private mutating func seeInPass(_ id: CountdownID) {
        while passCursor < passBefore.count, passBefore[passCursor] < id { passSkip() }
        if passCursor < passBefore.count, passBefore[passCursor] == id { passCursor += 1 }
        passOrder?.append(id)
    }

    /// An id known before that the pass went past without seeing.
    private mutating func passSkip() {
        let id = passBefore[passCursor]
        passCursor += 1
        passOrder?.append(id)
        switch summaries[id]?.status {
        case .stored, .unreadable: passGone.append(id)
        case .removed, .notStored, nil: break
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
