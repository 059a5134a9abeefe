import CountdownCore

/// What `watch --bar` shows when no ids are given: the countdown shown first
/// (the soonest end, as `status` orders them) and how many others it follows,
/// so that the line changes when the lead's shown second does, when the lead
/// changes, or when the store does, and never at the rate of the others' seconds.
///
/// Only the lead is on the scheduler (once a second, aligned to its end): the
/// others wake nothing. When it ends, the next in `SoonestOrder` leads; an
/// overtime lead counts up past its end and stays the lead.
///
/// It follows the running, overtime and paused countdowns it is told of, and
/// keeps one that finishes while followed, as finished, until it goes from the
/// store; one first seen finished is old news and is not followed.
final class BarLead: SchedulerDelegate {
    let scheduler: Scheduler
    /// The instant records are read at (the store's); nil when it cannot be read.
    let now: () -> StoreInstant?
    private var order = SoonestOrder()
    /// The records followed: the lead's is read from here whenever the lead changes.
    private var records: [CountdownID: StoredCountdown] = [:]
    private(set) var leadID: CountdownID?
    /// The lead as shown at its last tick (or when it became the lead).
    private(set) var lead: ShownCountdown?
    private var leadKey: CountdownKey?
    /// The lead's record changed: it is shown (and ticks) afresh.
    private var leadChanged = false
    /// During a pass over the whole listing, the ids it named.
    private var passSeen: Set<CountdownID>?

    init(scheduler: Scheduler, now: @escaping () -> StoreInstant?) {
        self.scheduler = scheduler
        self.now = now
    }

    /// Countdowns followed besides the lead.
    var others: Int { max(0, order.count - 1) }

    /// Countdowns followed.
    var count: Int { order.count }

    /// Lookups of the order so far (its entries looked at): a test bounds them.
    var entriesVisited: Int { order.entriesVisited }

    /// What the line shows: the lead (none when nothing is followed); the count
    /// of the others goes beside it (`others`). `now` is the wall clock, for `{end}`.
    func items(format: StatusFormat, critical: Nanoseconds, now: Nanoseconds) -> [BarItem] {
        lead.map { [BarItem($0, format: format, critical: critical, now: now)] } ?? []
    }

    /// The countdown followed under `id`, as shown at `now`.
    func shown(_ id: CountdownID, at now: StoreInstant) -> ShownCountdown? {
        if id == leadID, let lead { return lead }
        return records[id].map { ShownCountdown($0, at: now) }
    }

    /// Takes in what the store holds under `id` (nil: nothing any more).
    func take(_ id: CountdownID, _ record: StoredCountdown?, at now: StoreInstant) {
        passSeen?.insert(id)
        guard let record else {
            records[id] = nil
            order.set(id, nil)
            if id == leadID { leadChanged = true }
            return
        }
        let followed = order.standing(id) != nil
        if followed, records[id] == record { return }
        // A countdown first seen finished is old news.
        if !followed, record.effectiveState(at: now) == .finished { return }
        records[id] = record
        order.set(id, SoonestOrder.Standing(record, at: now))
        if id == leadID { leadChanged = true }
    }

    /// Starts a pass over the whole listing: ids it does not name are let go at `endPass`.
    func beginPass() { passSeen = [] }

    /// A pass that failed part way: nothing is let go.
    func abandonPass() { passSeen = nil }

    func endPass() {
        guard let seen = passSeen else { return }
        passSeen = nil
        for id in Array(records.keys) where !seen.contains(id) {
            records[id] = nil
            order.set(id, nil)
            if id == leadID { leadChanged = true }
        }
    }

    /// Finds the lead at `now` and, when it changed, shows it and ticks it.
    func settle(at now: StoreInstant) {
        let first = order.first(at: now.boot)
        guard first != leadID || leadChanged else { return }
        leadChanged = false
        stopTicking()
        leadID = first
        guard let first, let record = records[first] else {
            lead = nil
            return
        }
        lead = ShownCountdown(record, at: now)
        guard case .running(let deadline, _) = record.resumption(at: now) else { return }
        let key = scheduler.start(id: nil, deadline: deadline, every: Time.nanosecondsPerSecond, wantsTicks: true,
                                  length: record.total, context: 0)
        leadKey = key
        // An overtime countdown ticks on past its end, counting up, as its view does.
        if record.overtime { scheduler.allowOvertime(key, endPassed: record.isPastEnd(at: now)) }
        scheduler.announce(key)
    }

    private func stopTicking() {
        guard let key = leadKey else { return }
        leadKey = nil
        scheduler.cancel(key, reason: .stopped)
    }

    // MARK: The lead's ticks

    func countdownDidTick(_ tick: Tick) {
        guard tick.key == leadKey, let old = lead else { return }
        // Below zero: the time past the end of an overtime countdown.
        lead = ShownCountdown(id: old.id, state: tick.remaining < 0 ? .overtime : .running, timeLeft: tick.remaining,
                              total: old.total, wallEnd: old.wallEnd)
        lead?.title = old.title
    }

    func countdownDidPassEnd(_ tick: Tick) {
        guard tick.key == leadKey, let old = lead else { return }
        lead = ShownCountdown(id: old.id, state: .overtime, timeLeft: 0, total: old.total, wallEnd: old.wallEnd)
        lead?.title = old.title
    }

    /// The lead finished: it stays followed, finished, and the next one leads.
    func countdownDidEnd(_ tick: Tick, reason: EndReason) {
        guard reason == .finished, tick.key == leadKey, let id = leadID else { return }
        leadKey = nil
        order.set(id, .finished)
        leadChanged = true
        if let now = now() { settle(at: now) }
    }
}
