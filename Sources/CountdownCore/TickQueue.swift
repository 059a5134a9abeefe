/// A pending tick: a countdown's slot and the epoch it was queued under.
/// When the countdown is paused, rescheduled or ended its epoch moves on, and
/// the entry is skipped when it comes up (lazy removal: cancel stays O(1)).
struct TickEntry: BitwiseCopyable {
    var due: Nanoseconds
    var slot: Int32
    var epoch: UInt32
}

/// Where in `TickQueue` an entry lives: the heap, one of the ordered runs, the
/// first interval's list or another interval's list. A struct over one integer
/// rather than an enum with payloads: `earliest` returns it and `remove(from:)`
/// branches on it for every tick, and a payload enum would carry a tag beside
/// the index (more instructions per tick).
struct TickSource: Equatable, BitwiseCopyable {
    /// -1 for the heap, -2 - i for ordered run i, 0 for the first interval's
    /// list, i + 1 for list i of the others.
    let rawValue: Int

    @inline(__always)
    private init(rawValue: Int) { self.rawValue = rawValue }

    // Computed, not stored: a static stored property is read through a lazy
    // initializer's check; these fold to constants.
    /// The heap of ticks that fit no run.
    @inline(__always)
    static var heap: TickSource { TickSource(rawValue: -1) }
    /// The first interval's list (kept inline).
    @inline(__always)
    static var primary: TickSource { TickSource(rawValue: 0) }
    /// Ordered run `i` (0 ..< `TickQueue.OrderedRuns.count`).
    @inline(__always)
    static func orderedRun(_ i: Int) -> TickSource { TickSource(rawValue: -2 - i) }
    /// List `i` of the other intervals.
    @inline(__always)
    static func otherList(_ i: Int) -> TickSource { TickSource(rawValue: i + 1) }

    @inline(__always)
    static func == (a: TickSource, b: TickSource) -> Bool { a.rawValue == b.rawValue }

    /// The index of the other interval's list, when this is one.
    @inline(__always)
    var otherListIndex: Int? { rawValue > 0 ? rawValue - 1 : nil }
    /// The index of the ordered run, when this is one.
    @inline(__always)
    var orderedRunIndex: Int? { rawValue <= -2 ? -2 - rawValue : nil }
}

/// All pending ticks, kept the way a timer manager keeps them:
///
/// - one FIFO list per tick interval. Ticks come due in order, and each is
///   re-queued one interval later, so each list stays sorted with O(1) work.
/// - a binary heap for the rest: first ticks after a start, resume or append,
///   and catch-up ticks after a stall, whose instants do not follow that order.
///
/// A heap over every countdown costs about 20 times a FIFO per tick at a million
/// countdowns (see docs/design.md); the heap here only holds the irregular few.
/// Irregular ticks that arrive in order anyway skip it too (see `push`).
struct TickQueue: ~Copyable {
    /// An entry with its countdown's start order, for lists whose order is not implied.
    struct SequencedEntry: BitwiseCopyable {
        var entry: TickEntry
        var seq: UInt64
    }

    /// Another interval's ticks, in due order.
    final class IntervalList {
        var entries = RingBuffer<TickEntry>()
    }

    /// A run of irregular ticks pushed in (due, start order). In segments: a
    /// burst of starts queues a run as long as the countdowns it started.
    struct OrderedRun: ~Copyable {
        var entries = SegmentedQueue<SequencedEntry>()
        var tail = SequencedEntry(entry: TickEntry(due: 0, slot: 0, epoch: 0), seq: 0)

        /// Appends `entry` when it keeps the run in order.
        @inline(__always)
        mutating func append(_ entry: TickEntry, seq: UInt64) -> Bool {
            guard entries.isEmpty || entry.due > tail.entry.due || (entry.due == tail.entry.due && seq > tail.seq) else {
                return false
            }
            tail = SequencedEntry(entry: entry, seq: seq)
            entries.append(tail)
            return true
        }
    }

    /// A few runs side by side, inline: a push tries them in turn with no
    /// reference counting (as an array of classes would cost on every start).
    struct OrderedRuns: ~Copyable {
        static let count = 4
        private var run0 = OrderedRun(), run1 = OrderedRun(), run2 = OrderedRun(), run3 = OrderedRun()

        /// Calls `body` with run `i` (0 ..< count).
        @inline(__always)
        mutating func with<R>(_ i: Int, _ body: (inout OrderedRun) -> R) -> R {
            switch i {
            case 0: return body(&run0)
            case 1: return body(&run1)
            case 2: return body(&run2)
            default: return body(&run3)
            }
        }

        /// Reads run `i` (0 ..< count).
        @inline(__always)
        func read<R>(_ i: Int, _ body: (borrowing OrderedRun) -> R) -> R {
            switch i {
            case 0: return body(run0)
            case 1: return body(run1)
            case 2: return body(run2)
            default: return body(run3)
            }
        }
    }

    /// The first interval's ticks, kept inline: with one interval in use (the
    /// common case) every tick passes through this list twice, with no reference
    /// counting. Source `.primary` in `earliest`.
    private var primary = RingBuffer<TickEntry>()
    /// 0 until the first list is in use (intervals are positive).
    private(set) var primaryInterval: Nanoseconds = 0
    /// Every other interval's list; list i is source `.otherList(i)`.
    private var others: [IntervalList] = []
    private var listIndex: [Nanoseconds: Int] = [:]
    /// Irregular ticks mostly come in runs that are already in order: a million
    /// countdowns started in a row, or caught up together after a stall. Each run
    /// costs a ring-buffer append per tick instead of a heap push; a few runs side
    /// by side let one late straggler not divert the rest. Run i is source `.orderedRun(i)`.
    private var ordered = OrderedRuns()
    /// Everything else: source `.heap`.
    private var heap: [(entry: TickEntry, seq: UInt64)] = []
    /// Entries anywhere but the first interval's list: while 0, the earliest
    /// entry is that list's head, found with one comparison.
    private var elsewhere = 0
    /// No later than the instant of any entry elsewhere (`Nanoseconds.max` when
    /// there is none): while the first interval's head comes strictly before it,
    /// that head is the earliest entry of all, found with one comparison too. A
    /// countdown on another interval (a board that ticks each second beside items
    /// that tick each tenth) then costs nothing to the ticks of the rest. Entries
    /// taken out leave it behind, still a bound; `refreshElsewhereEarliest` makes
    /// it exact again.
    private(set) var elsewhereEarliest = Nanoseconds.max

    var isEmpty: Bool {
        heap.isEmpty && primary.isEmpty && (0..<OrderedRuns.count).allSatisfy { ordered.read($0) { $0.entries.isEmpty } }
            && others.allSatisfy { $0.entries.isEmpty }
    }

    /// Queues a tick exactly one interval after the tick that was just fired.
    /// Callers guarantee order: ticks are fired in (due, start order), so these pushes are too.
    @inline(__always)
    mutating func pushInOrder(_ entry: TickEntry, interval: Nanoseconds) {
        if interval == primaryInterval {
            primary.append(entry)
        } else {
            pushToOther(entry, interval: interval)
        }
    }

    /// The first interval's head when it is the earliest entry of all, strictly
    /// before anything elsewhere (see `earliest`); nil otherwise.
    @inline(__always)
    var headWhenEarliest: TickEntry? {
        guard let head = primary.first, elsewhere == 0 || head.due < elsewhereEarliest else { return nil }
        return head
    }

    /// Makes `elsewhereEarliest` the instant of the earliest entry elsewhere.
    mutating func refreshElsewhereEarliest() {
        var earliest = Nanoseconds.max
        if elsewhere != 0 {
            if let top = heap.first { earliest = top.entry.due }
            for i in 0..<OrderedRuns.count {
                if let head = ordered.read(i, { $0.entries.first }) { earliest = min(earliest, head.entry.due) }
            }
            for list in others {
                if let head = list.entries.first { earliest = min(earliest, head.due) }
            }
        }
        elsewhereEarliest = earliest
    }

    /// Takes `headWhenEarliest` out and queues `next`, a tick of the same
    /// interval one interval after it, at the end of the list: `remove(from: 0)`
    /// then `pushInOrder`, in one step.
    @inline(__always)
    mutating func requeuePrimaryHead(_ next: TickEntry) {
        primary.rotate(appending: next)
    }

    private mutating func pushToOther(_ entry: TickEntry, interval: Nanoseconds) {
        if primaryInterval == 0 {
            primaryInterval = interval
            primary.append(entry)
            return
        }
        elsewhere += 1
        elsewhereEarliest = min(elsewhereEarliest, entry.due)
        if let i = listIndex[interval] {
            others[i].entries.append(entry)
        } else {
            listIndex[interval] = others.count
            let list = IntervalList()
            list.entries.append(entry)
            others.append(list)
        }
    }

    /// Queues a tick at any instant.
    mutating func push(_ entry: TickEntry, seq: UInt64) {
        elsewhere += 1
        elsewhereEarliest = min(elsewhereEarliest, entry.due)
        for i in 0..<OrderedRuns.count where ordered.with(i, { $0.append(entry, seq: seq) }) { return }
        heap.append((entry, seq))
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.less(heap[child], heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// The earliest entry and where it lives. `seqOf` gives the start order of a
    /// slot, to order ties across lists.
    @inline(__always)
    func earliest(seqOf: (Int32) -> UInt64) -> (source: TickSource, entry: TickEntry)? {
        // The common case: the first interval's head, before anything elsewhere.
        if let head = headWhenEarliest { return (.primary, head) }
        if elsewhere == 0 { return nil }
        return earliestOfAll(seqOf: seqOf)
    }

    private func earliestOfAll(seqOf: (Int32) -> UInt64) -> (source: TickSource, entry: TickEntry)? {
        var best: (source: TickSource, entry: TickEntry, seq: UInt64)?
        if let top = heap.first { best = (.heap, top.entry, top.seq) }
        for i in 0..<OrderedRuns.count {
            if let head = ordered.read(i, { $0.entries.first }), best.map({ (head.entry.due, head.seq) < ($0.entry.due, $0.seq) }) ?? true {
                best = (.orderedRun(i), head.entry, head.seq)
            }
        }
        // List 0 is the first interval's, list i + 1 the others' list i.
        for list in 0...others.count {
            guard let head = list == 0 ? primary.first : others[list - 1].entries.first else { continue }
            let source: TickSource = list == 0 ? .primary : .otherList(list - 1)
            if let b = best {
                if head.due > b.entry.due { continue }
                if head.due == b.entry.due {
                    let seq = seqOf(head.slot)
                    if seq >= b.seq { continue }
                    best = (source, head, seq)
                    continue
                }
            }
            best = (source, head, seqOf(head.slot))
        }
        return best.map { ($0.source, $0.entry) }
    }

    @inline(__always)
    mutating func remove(from source: TickSource) {
        if source == .primary {
            primary.removeFirst()
            return
        }
        elsewhere -= 1
        if elsewhere == 0 { elsewhereEarliest = .max }
        if let list = source.otherListIndex {
            others[list].entries.removeFirst()
        } else if let run = source.orderedRunIndex {
            // A drained segment is freed as the run moves on (see SegmentedQueue).
            ordered.with(run) { $0.entries.removeFirst() }
        } else {
            popHeap()
        }
    }

    mutating func removeAll() {
        primary.removeAll()
        for list in others { list.entries.removeAll() }
        for i in 0..<OrderedRuns.count { ordered.with(i) { $0.entries.removeAll() } }
        heap.removeAll()
        elsewhere = 0
        elsewhereEarliest = .max
    }

    var storageBytes: Int {
        heap.capacity * MemoryLayout<(entry: TickEntry, seq: UInt64)>.stride
            + primary.capacityBytes + (0..<OrderedRuns.count).reduce(0) { sum, i in sum + ordered.read(i) { $0.entries.capacityBytes } }
            + others.reduce(0) { $0 + $1.entries.capacityBytes }
    }

    var count: Int {
        heap.count + primary.count + (0..<OrderedRuns.count).reduce(0) { sum, i in sum + ordered.read(i) { $0.entries.count } } + others.reduce(0) { $0 + $1.entries.count }
    }

    private mutating func popHeap() {
        let last = heap.removeLast()
        guard !heap.isEmpty else {
            // A million first ticks pass through the heap at start-up; give the
            // memory back once they have moved on to their FIFO lists.
            if heap.capacity > 1024 { heap = [] }
            return
        }
        heap[0] = last
        var parent = 0
        let n = heap.count
        while true {
            let left = 2 * parent + 1
            guard left < n else { break }
            var child = left
            if left + 1 < n, Self.less(heap[left + 1], heap[left]) { child = left + 1 }
            guard Self.less(heap[child], heap[parent]) else { break }
            heap.swapAt(child, parent)
            parent = child
        }
    }

    @inline(__always)
    private static func less(_ a: (entry: TickEntry, seq: UInt64), _ b: (entry: TickEntry, seq: UInt64)) -> Bool {
        a.entry.due < b.entry.due || (a.entry.due == b.entry.due && a.seq < b.seq)
    }
}
