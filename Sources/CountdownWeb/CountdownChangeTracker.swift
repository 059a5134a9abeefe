import CountdownCore

/// One change of a stored countdown as the event stream tells it.
public struct CountdownEvent: Equatable, Sendable {
    /// What happened, in the words of the event stream.
    public enum Kind: String, Sendable, CaseIterable {
        case new, append, pause, resume, cancel, end, overtime
    }

    public let kind: Kind
    public let id: String
    /// The record after the change; nil once cancelled.
    public let countdown: StoredCountdown?
}

/// Knows what the pages were last told about every stored countdown, and turns a
/// fresh read of the store (or the passing of time) into the events that tell
/// them the difference. Pure: no I/O, no clock of its own; the server owns it on
/// its one thread.
///
/// Time alone changes a countdown's listed state twice at most: at its end it is
/// finished, or, started with `overtime`, in overtime. `nextBoundary` says when
/// the soonest such moment is, so that the server keeps one timer for all of them.
public struct CountdownChangeTracker {
    private var known: [CountdownID: (record: StoredCountdown, listed: String)] = [:]

    public init() {}

    /// The countdowns known, in id order.
    public var countdowns: [StoredCountdown] {
        known.values.map(\.record).sorted { $0.id.precedesInBytes($1.id) }
    }

    /// Starts over from a whole read of the store; returns the events that read makes.
    public mutating func replaceAll(with records: [StoredCountdown], at now: StoreInstant) -> [CountdownEvent] {
        var events: [CountdownEvent] = []
        var seen = Set<CountdownID>()
        for record in records {
            seen.insert(CountdownID(record.id))
            if let event = update(id: record.id, to: record, at: now) { events.append(event) }
        }
        for gone in known.keys.filter({ !seen.contains($0) }).sorted() {
            if let event = update(id: gone.string, to: nil, at: now) { events.append(event) }
        }
        return events
    }

    /// The record of `id` as the store now holds it (nil: none); the event it makes, if any.
    public mutating func update(id: String, to record: StoredCountdown?, at now: StoreInstant) -> CountdownEvent? {
        let key = CountdownID(id)
        let before = known[key]
        guard let record else {
            guard before != nil else { return nil }
            known[key] = nil
            return CountdownEvent(kind: .cancel, id: id, countdown: nil)
        }
        let listed = record.listedState(at: now)
        known[key] = (record, listed)
        guard let before else { return CountdownEvent(kind: .new, id: id, countdown: record) }
        if before.listed != listed {
            return CountdownEvent(kind: Self.kind(from: before.listed, to: listed), id: id, countdown: record)
        }
        if before.record.total != record.total || before.record.wallDeadline != record.wallDeadline
            || before.record.pausedRemaining != record.pausedRemaining {
            return CountdownEvent(kind: .append, id: id, countdown: record)
        }
        return nil
    }

    /// The events that time alone made by `now`: ends and overtimes.
    public mutating func advance(to now: StoreInstant) -> [CountdownEvent] {
        var events: [CountdownEvent] = []
        for (key, entry) in known.sorted(by: { $0.key < $1.key }) {
            let listed = entry.record.listedState(at: now)
            guard listed != entry.listed else { continue }
            known[key] = (entry.record, listed)
            events.append(CountdownEvent(kind: Self.kind(from: entry.listed, to: listed), id: entry.record.id, countdown: entry.record))
        }
        return events
    }

    /// Nanoseconds from `now` to the soonest end of a running countdown not yet
    /// told as ended (or in overtime); nil when there is none.
    public func nextBoundary(at now: StoreInstant) -> Nanoseconds? {
        var soonest: Nanoseconds?
        for entry in known.values where entry.listed == StoredCountdown.State.running.rawValue {
            let left = max(0, entry.record.timeLeft(at: now))
            soonest = min(soonest ?? left, left)
        }
        return soonest
    }

    private static func kind(from before: String, to after: String) -> CountdownEvent.Kind {
        switch after {
        case "paused": return .pause
        case "finished": return .end
        case "overtime": return before == "paused" ? .resume : .overtime
        default: return before == "paused" ? .resume : .append
        }
    }
}
