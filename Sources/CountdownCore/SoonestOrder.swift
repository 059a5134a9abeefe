/// The countdowns a bar without ids follows, kept in the order `status` shows
/// them (soonest end first), so that the first of them is found without a pass
/// over all: overtime ones past their end (longest past it first), then running
/// ones by time left, both by their end on the boot clock; then paused ones by
/// time left (past the end first); then finished ones by id. Ids break ties,
/// in byte order.
///
/// A running countdown whose end passes is finished from then on (unless it
/// runs in overtime); `first(at:)` moves those it meets on its way to the first.
/// Each of the three orders is a binary heap that lets go of what changed lazily:
/// an entry is current only while its id still stands as it did when pushed.
public struct SoonestOrder {
    /// Where one countdown stands.
    public enum Standing: Equatable, Sendable {
        /// Running until `end` on the boot clock; `overtime`: it runs on past it.
        case running(end: Nanoseconds, overtime: Bool)
        /// Paused with `left` (below zero: past the end of an overtime countdown).
        case paused(left: Nanoseconds)
        case finished

        /// A record's standing at `now`; nil for one that is not running, paused or finished there.
        public init(_ record: StoredCountdown, at now: StoreInstant) {
            switch record.effectiveState(at: now) {
            case .running: self = .running(end: now.boot + record.timeLeft(at: now), overtime: record.overtime)
            case .paused: self = .paused(left: record.pausedRemaining ?? 0)
            case .finished: self = .finished
            }
        }
    }

    private struct Entry {
        let key: Nanoseconds
        let id: CountdownID

        func precedes(_ other: Entry) -> Bool {
            key != other.key ? key < other.key : id < other.id
        }
    }

    private var standings: [CountdownID: Standing] = [:]
    private var running = EntryHeap()
    private var paused = EntryHeap()
    private var finished = EntryHeap()
    /// Entries looked at by `first(at:)` and kept current by `set`: what a test
    /// bounds to tell a lookup that costs a pass over every countdown.
    public private(set) var entriesVisited = 0

    public init() {}

    /// Countdowns followed.
    public var count: Int { standings.count }

    public func standing(_ id: CountdownID) -> Standing? { standings[id] }

    /// Follows `id` as standing so; nil lets it go.
    public mutating func set(_ id: CountdownID, _ standing: Standing?) {
        guard standings[id] != standing else { return }
        standings[id] = standing
        switch standing {
        case .running(let end, _)?: running.push(Entry(key: end, id: id))
        case .paused(let left)?: paused.push(Entry(key: left, id: id))
        case .finished?: finished.push(Entry(key: 0, id: id))
        case nil: break
        }
        // Entries let go of lazily are dropped once they outnumber the current ones.
        if running.count + paused.count + finished.count > 2 * standings.count + 64 { rebuild() }
    }

    /// The countdown shown first at `now` (boot clock); nil when none is followed.
    /// Running countdowns whose end has passed (and that run no overtime) are
    /// finished from here on.
    public mutating func first(at now: Nanoseconds) -> CountdownID? {
        while let top = running.top {
            entriesVisited += 1
            guard case .running(let end, let overtime)? = standings[top.id], end == top.key else {
                running.pop()
                continue
            }
            if overtime || end > now { return top.id }
            running.pop()
            set(top.id, .finished)
        }
        while let top = paused.top {
            entriesVisited += 1
            if standings[top.id] == .paused(left: top.key) { return top.id }
            paused.pop()
        }
        while let top = finished.top {
            entriesVisited += 1
            if standings[top.id] == .finished { return top.id }
            finished.pop()
        }
        return nil
    }

    private mutating func rebuild() {
        running = EntryHeap()
        paused = EntryHeap()
        finished = EntryHeap()
        for (id, standing) in standings {
            switch standing {
            case .running(let end, _): running.push(Entry(key: end, id: id))
            case .paused(let left): paused.push(Entry(key: left, id: id))
            case .finished: finished.push(Entry(key: 0, id: id))
            }
        }
    }

    /// A binary min-heap of entries.
    private struct EntryHeap {
        private var items: [Entry] = []

        var count: Int { items.count }
        var top: Entry? { items.first }

        mutating func push(_ entry: Entry) {
            items.append(entry)
            var child = items.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard items[child].precedes(items[parent]) else { break }
                items.swapAt(child, parent)
                child = parent
            }
        }

        mutating func pop() {
            guard !items.isEmpty else { return }
            items.swapAt(0, items.count - 1)
            items.removeLast()
            var parent = 0
            while true {
                let left = 2 * parent + 1, right = left + 1
                var least = parent
                if left < items.count, items[left].precedes(items[least]) { least = left }
                if right < items.count, items[right].precedes(items[least]) { least = right }
                guard least != parent else { return }
                items.swapAt(parent, least)
                parent = least
            }
        }
    }
}
