/// The one scheduler that drives every countdown.
///
/// It owns the countdowns and their pending ticks, reads time only from its
/// injected `TimeSource`, and does no I/O: a run loop (or a test's virtual clock)
/// asks for `nextDue` and calls `runDue` when that instant has come.
///
/// Semantics (see docs/lua-api.md, "Tick semantics"):
/// - Deadlines are absolute; remaining time is always `deadline - now`.
/// - Ticks land where the remaining time is a whole multiple of `every`, plus one at start.
/// - A tick fired a whole interval or more late is a catch-up: one tick with the true
///   remaining time and the count of missed ticks, never a burst of stale ones.
/// - The end is reported exactly once.
///
/// Not thread-safe by design: one thread owns the scheduler and the Lua state.
public final class Scheduler {
    public let clock: TimeSource
    /// The thread that made the scheduler, the only one that may use it (checked
    /// in debug builds where it is entered: start, runDue, cancelAll, and every
    /// call given a key, in `liveSlot`).
    public let owner = OwnerThread()
    /// Receives every event. Not retained: the delegate must outlive its use, and
    /// clear itself when it goes. A checked `unowned`: a use after the delegate
    /// went traps. Against the unchecked form, callgrind counts the same
    /// instructions for every `cdbench ops` operation and a tick (a pass of
    /// `runDue` reads it once; a replaced countdown's end trades one
    /// `swift_retain` for one `swift_unownedRetainStrong`), and a fetch measured
    /// 1.2% slower over 12 link orders, within their spread (scripts/bench-layout;
    /// docs/performance.md, "Back-pointers"): no benchmark shows a cost to keep
    /// the unchecked form for.
    public unowned var delegate: SchedulerDelegate? {
        // Not `delegate as? BatchingSchedulerDelegate`: a cast to a protocol
        // scans the binary's conformances at its first use (0.15 million
        // instructions of every run).
        didSet { batchingDelegate = delegate?.asBatchingDelegate }
    }
    /// `delegate` as a batching one, when it is.
    unowned var batchingDelegate: BatchingSchedulerDelegate?
    /// While `countdownsAreDue` runs: the instant of the pass, up to which
    /// `takePlainTick` hands out ticks; `Nanoseconds.min` otherwise.
    var takingUpTo = Nanoseconds.min

    var records = PagedArray(filler: Record())
    var freeSlots: [Int32] = []
    var ids: [CountdownID: CountdownKey] = [:]
    /// Ids by slot, kept apart so that records stay plain data and anonymous countdowns pay nothing.
    var idBySlot: [Int32: String] = [:]
    var queue = TickQueue()
    var nextSeq: UInt64 = 0
    /// The instant of the event being delivered; `Nanoseconds.min` when none is.
    var dispatchInstant = Nanoseconds.min
    /// The slot whose tick is being delivered (-1 when none), and whether that
    /// tick is an immediate one (after append, pause or resume): changes made
    /// there fire no further immediate ticks, so hooks cannot recurse.
    var dispatchSlot: Int32 = -1
    var inImmediateTick = false
    /// The wall-clock deadline of each `at` countdown, by slot: few countdowns have one.
    var wallDeadlines: [Int32: Nanoseconds] = [:]
    var wallReferenceOffset: Nanoseconds = 0

    /// Countdowns that are running or paused.
    public private(set) var activeCount = 0
    /// Ticks and ends delivered so far; `runAll` limits use it.
    public internal(set) var dispatchCount = 0

    /// How far the wall clock may move against the boot clock before `at`
    /// countdowns are re-based onto it. Slewing by NTP stays below this for seconds.
    public var wallJumpTolerance: Nanoseconds = 2_000_000

    public init(clock: TimeSource) {
        self.clock = clock
    }

    /// Bytes the scheduler holds for its countdowns and queues (capacity, not use),
    /// for benchmarks.
    public var storageBytes: Int {
        records.capacityBytes + freeSlots.capacity * 4 + queue.storageBytes
    }

    /// The current instant: the tick's instant while a hook runs, so that every
    /// hook sees one consistent time; otherwise the clock's.
    public var now: Nanoseconds { dispatchInstant != .min ? dispatchInstant : clock.bootNow() }

    /// True while a hook runs (a tick or an end is being delivered).
    public var isDispatching: Bool { dispatchInstant != .min }

    // MARK: Starting

    /// Creates a countdown; nothing fires yet. Call `announce(_:)` once the caller
    /// is ready for events (the Lua host registers its hooks in between).
    /// A running countdown with the same id ends with reason `.replaced`.
    public func start(_ spec: consuming CountdownSpec) -> CountdownKey {
        start(id: spec.id, deadline: spec.deadline, every: spec.every, wantsTicks: spec.wantsTicks, length: spec.length,
              context: spec.context)
    }

    /// `start(_:)` with the spec's fields as arguments: a caller that starts many
    /// countdowns passes them in registers, where a spec is copied through memory.
    public func start(id: String?, deadline: Deadline, every: Nanoseconds, wantsTicks: Bool, length: Nanoseconds?,
                      context: UInt64) -> CountdownKey {
        owner.assertCurrent("the scheduler")
        precondition(every > 0, "tick interval must be positive")
        if let id, let old = ids[CountdownID(id)] {
            end(old, reason: .replaced, at: now)
        }
        let now = self.now
        let slot: Int32
        if let reused = freeSlots.popLast() {
            slot = reused
        } else {
            slot = Int32(records.count)
            records.append(Record())
        }
        // A new record but for the counters that tell its uses apart.
        var record = Record()
        record.generation = records[Int(slot)].generation &+ 1
        record.epoch = records[Int(slot)].epoch &+ 1
        record.live = true
        record.state = .running
        record.wantsTicks = wantsTicks
        record.every = every
        record.context = context
        record.seq = nextSeq
        record.started = now
        nextSeq += 1
        switch deadline {
        case .after(let duration):
            record.isWall = false
            record.deadline = now + duration
            record.total = duration
        case .wall(let wallDeadline):
            // Read both clocks together: inside a hook `now` is the tick's instant,
            // which lies behind the clocks when the pass runs late.
            let bootNow = clock.bootNow()
            let wallOffset = clock.wallNow() - bootNow
            rebaseIfWallMoved(now: bootNow)
            record.isWall = true
            record.deadline = wallDeadline - wallOffset
            record.total = max(0, record.deadline - now)
            wallDeadlines[slot] = wallDeadline
        case .boot(let bootDeadline):
            record.isWall = false
            record.deadline = bootDeadline
            record.total = max(0, bootDeadline - now)
        }
        if let length { record.total = max(length, record.deadline - now) }
        records[Int(slot)] = record
        activeCount += 1
        let key = CountdownKey(slot: slot, generation: record.generation)
        if let id {
            ids[CountdownID(id)] = key
            idBySlot[slot] = id
        }
        return key
    }

    /// Fires a new countdown's first tick at once, or its end if its deadline has
    /// already passed, and queues what follows.
    public func announce(_ key: CountdownKey) {
        announce(key, to: delegate)
    }

    /// `announce(_:)` for a caller that is the scheduler's delegate and passes
    /// itself: the tick goes to it without the retain and release that reading
    /// the unowned delegate costs (two atomic operations per start).
    public func announce(_ key: CountdownKey, to delegate: SchedulerDelegate?) {
        assert(delegate === self.delegate, "announce(_:to:) takes the scheduler's own delegate")
        guard let slot = liveSlot(key), records[slot].state == .running else { return }
        // The first tick stands for the start instant, so it shows the whole length.
        let now = records[slot].started
        let remaining = records[slot].deadline - now
        if remaining <= 0, records[slot].pastEnd {
            // Picked up past the end of an overtime countdown: ticks on from here.
            reschedule(slot, now: now)
            dispatch(Tick(key: key, instant: now, remaining: remaining, total: records[slot].total, missed: 0, context: records[slot].context), to: delegate)
            return
        }
        if remaining <= 0 {
            // An `at` deadline already past: the first tick still fires, showing 0, then the end.
            if records[slot].wantsTicks, records[slot].isWall {
                dispatch(Tick(key: key, instant: now, remaining: 0, total: records[slot].total, missed: 0, context: records[slot].context), to: delegate)
            }
            end(key, reason: .finished, at: now)
            return
        }
        reschedule(slot, now: now)
        dispatch(Tick(key: key, instant: now, remaining: remaining, total: records[slot].total, missed: 0, context: records[slot].context), to: delegate)
    }

    // MARK: Driving

    /// The instant of the earliest pending tick, or nil when nothing is scheduled
    /// (then a run loop should sleep without a timeout: no wake-ups while idle).
    public func nextDue() -> Nanoseconds? {
        while let (source, entry) = queue.earliest(seqOf: { records[Int($0)].seq }) {
            if records[Int(entry.slot)].epoch == entry.epoch { return entry.due }
            queue.remove(from: source)
        }
        return nil
    }

    /// Fires every tick that is due now, in (instant, start order). Ticks queued
    /// by hooks during the pass are later than now, so a pass always ends.
    public func runDue() {
        owner.assertCurrent("the scheduler")
        let now = clock.bootNow()
        rebaseIfWallMoved(now: now)
        // One strong reference for the whole pass: calls through it then need no
        // reference counting, which through the stored reference costs two atomic
        // operations per tick.
        let delegate = self.delegate
        let batching = batchingDelegate
        var offer = batching != nil
        while let (source, entry) = queue.earliest(seqOf: { records[Int($0)].seq }), entry.due <= now {
            // Only a plain tick is worth offering: the delegate would take nothing
            // else (an end, say, the last entry of every countdown), and a refused
            // offer costs more than the end itself.
            if offer, let batching, isLivePlain(entry, now: now) {
                // The delegate takes what it can; the entry it left, if any, comes next.
                offer = false
                let outer = (takingUpTo, dispatchInstant, dispatchSlot)
                takingUpTo = now
                batching.countdownsAreDue(self)
                (takingUpTo, dispatchInstant, dispatchSlot) = outer
                continue
            }
            offer = batching != nil
            queue.remove(from: source)
            let slot = Int(entry.slot)
            guard records[slot].epoch == entry.epoch else { continue }
            fire(slot: slot, due: entry.due, now: now, delegate: delegate)
        }
    }

    // MARK: Internals

    /// The slot of a countdown still live under `key`. Every call given a key comes
    /// through here, so the owner thread is checked here (debug builds).
    @inline(__always)
    func liveSlot(_ key: CountdownKey) -> Int? {
        owner.assertCurrent("the scheduler")
        let slot = Int(key.slot)
        guard slot >= 0, slot < records.count else { return nil }
        let r = records[slot]
        return r.live && r.generation == key.generation ? slot : nil
    }

    func remaining(slot: Int, now: Nanoseconds) -> Nanoseconds {
        let r = records[slot]
        return r.state == .paused ? max(0, r.pausedRemaining) : max(0, r.deadline - now)
    }

    func key(_ slot: Int) -> CountdownKey {
        CountdownKey(slot: Int32(slot), generation: records[slot].generation)
    }

    /// Queues the next tick aligned to the deadline, strictly after `now`
    /// (or at `now` itself when `includingNow` and `now` is aligned).
    func reschedule(_ slot: Int, now: Nanoseconds, includingNow: Bool = false) {
        records[slot].epoch &+= 1
        records[slot].carriedMissed = 0
        let r = records[slot]
        let remaining = r.deadline - now
        let due: Nanoseconds
        if remaining <= 0 {
            // Past the end of an overtime countdown (resumed, say): the next tick
            // on the deadline's alignment; the tick of this instant came already.
            due = r.pastEnd && r.wantsTicks ? now + (r.every - (now - r.deadline) % r.every) : now
        } else if !r.wantsTicks {
            due = r.deadline
        } else {
            let phase = remaining % r.every
            due = now + (phase != 0 ? phase : includingNow ? 0 : r.every)
        }
        queue.push(TickEntry(due: due, slot: Int32(slot), epoch: r.epoch), seq: r.seq)
    }

    /// Queues a countdown's pending event again at `instant`, later in the same pass,
    /// carrying the ticks it skipped. A late pass thus reports every event in
    /// (instant, start order), and hooks never see time run backwards.
    func putOff(_ slot: Int, to instant: Nanoseconds, missed: Int64) {
        records[slot].carriedMissed = missed
        queue.push(TickEntry(due: instant, slot: Int32(slot), epoch: records[slot].epoch), seq: records[slot].seq)
    }

    @inline(__always)
    func fire(slot: Int, due: Nanoseconds, now: Nanoseconds, delegate: SchedulerDelegate?) {
        let r = records[slot]
        // The common case, inline in the pass.
        if isPlain(r, due: due, now: now) {
            dispatch(requeuePlain(slot: slot, r, due: due), to: delegate)
            return
        }
        fireAnyCase(slot: slot, due: due, now: now, delegate: delegate)
    }

    func fireAnyCase(slot: Int, due: Nanoseconds, now: Nanoseconds, delegate: SchedulerDelegate?) {
        let r = records[slot]
        let k = key(slot)
        let lateness = now - due
        let carried = r.carriedMissed
        if carried != 0 { records[slot].carriedMissed = 0 }
        if r.deadline <= now {
            // The one branch overtime costs, on the way to an end.
            if r.overtime {
                fireOvertime(slot: slot, r, due: due, now: now, carried: carried, delegate: delegate)
                return
            }
            // The end, noticed on time or late: report it once, with the ticks it skipped,
            // at the deadline's instant.
            let missed = carried + (r.wantsTicks && r.deadline > due ? (r.deadline - due + r.every - 1) / r.every : 0)
            let instant = max(due, min(now, r.deadline))
            if instant > due {
                putOff(slot, to: instant, missed: missed)
                return
            }
            end(k, reason: .finished, at: instant, missed: missed, to: delegate)
            return
        }
        if lateness >= r.every {
            // A stall: one catch-up tick with the true remaining time, at `now`.
            putOff(slot, to: now, missed: carried + lateness / r.every)
            return
        }
        if carried > 0 {
            // A catch-up tick put off by `putOff`: the next tick is back on the alignment.
            let remaining = r.deadline - due
            let phase = remaining % r.every
            queue.push(TickEntry(due: due + (phase == 0 ? r.every : phase), slot: Int32(slot), epoch: r.epoch), seq: r.seq)
            dispatch(Tick(key: k, instant: due, remaining: remaining, total: r.total, missed: carried, context: r.context), to: delegate)
            return
        }
        let next = min(due + r.every, r.deadline)
        if next == due + r.every {
            queue.pushInOrder(TickEntry(due: next, slot: Int32(slot), epoch: r.epoch), interval: r.every)
        } else {
            queue.push(TickEntry(due: next, slot: Int32(slot), epoch: r.epoch), seq: r.seq)
        }
        dispatch(Tick(key: k, instant: due, remaining: r.deadline - due, total: r.total, missed: 0, context: r.context), to: delegate)
    }

    /// An overtime countdown at or past its deadline: the end once (as `end`
    /// reports it, but the countdown stays), then ticks aligned to the deadline
    /// with `remaining` below zero; after a stall, one tick at the latest aligned
    /// instant with the ticks it skipped.
    @inline(never)
    func fireOvertime(slot: Int, _ r: Record, due: Nanoseconds, now: Nanoseconds, carried: Int64, delegate: SchedulerDelegate?) {
        let k = key(slot)
        if !r.pastEnd {
            let missed = carried + (r.wantsTicks && r.deadline > due ? (r.deadline - due + r.every - 1) / r.every : 0)
            let instant = max(due, min(now, r.deadline))
            if instant > due {
                putOff(slot, to: instant, missed: missed)
                return
            }
            records[slot].pastEnd = true
            if r.wantsTicks {
                queue.push(TickEntry(due: r.deadline + r.every, slot: Int32(slot), epoch: r.epoch), seq: r.seq)
            }
            dispatchCount &+= 1
            let outer = (dispatchInstant, dispatchSlot)
            (dispatchInstant, dispatchSlot) = (instant, Int32(slot))
            delegate?.countdownDidPassEnd(Tick(key: k, instant: instant, remaining: 0, total: r.total, missed: missed, context: r.context))
            (dispatchInstant, dispatchSlot) = outer
            return
        }
        guard r.wantsTicks else { return }
        // Aligned to the deadline, as the ticks before it were.
        let behind = (now - due) / r.every
        let instant = due + behind * r.every
        queue.push(TickEntry(due: instant + r.every, slot: Int32(slot), epoch: r.epoch), seq: r.seq)
        dispatch(Tick(key: k, instant: instant, remaining: r.deadline - instant, total: r.total, missed: carried + behind, context: r.context), to: delegate)
    }

    @inline(__always)
    func dispatch(_ tick: Tick, to delegate: SchedulerDelegate?) {
        dispatchCount &+= 1
        let outer = dispatchInstant
        let outerSlot = dispatchSlot
        dispatchInstant = tick.instant
        dispatchSlot = tick.key.slot
        delegate?.countdownDidTick(tick)
        dispatchInstant = outer
        dispatchSlot = outerSlot
    }

    func end(_ key: CountdownKey, reason: EndReason, at instant: Nanoseconds, missed: Int64 = 0) {
        end(key, reason: reason, at: instant, missed: missed, to: delegate)
    }

    /// `end` for a caller that holds the delegate already (a pass of `runDue`):
    /// no retain and release of it per end.
    func end(_ key: CountdownKey, reason: EndReason, at instant: Nanoseconds, missed: Int64,
                     to delegate: SchedulerDelegate?) {
        guard let slot = liveSlot(key) else { return }
        let r = records[slot]
        // An overtime countdown past its end has had its end (reported once, by
        // `countdownDidPassEnd`): cancelling it stops its ticks, and is no second end.
        let reason = reason == .cancelled && r.pastEnd ? EndReason.cancelledPastEnd : reason
        let remaining = reason == .finished ? 0 : remaining(slot: slot, now: instant)
        records[slot].live = false
        records[slot].state = reason == .finished ? .finished : .cancelled
        records[slot].epoch &+= 1
        if r.isWall { wallDeadlines[Int32(slot)] = nil }
        // Only stored countdowns have ids here; an empty table needs no hashing.
        if !idBySlot.isEmpty, let id = idBySlot.removeValue(forKey: Int32(slot)), ids[CountdownID(id)] == key { ids[CountdownID(id)] = nil }
        activeCount -= 1
        freeSlots.append(Int32(slot))
        if activeCount == 0 { queue.removeAll() }
        let tick = Tick(key: key, instant: instant, remaining: remaining, total: r.total, missed: missed, context: r.context)
        dispatchCount += 1
        let outer = dispatchInstant
        dispatchInstant = instant
        delegate?.countdownDidEnd(tick, reason: reason)
        dispatchInstant = outer
    }
}
