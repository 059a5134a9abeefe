// The batch hot path: plain ticks, and handing them out one by one to a
// `BatchingSchedulerDelegate` inside `runDue` (see `takePlainTick`). Nearly every
// tick passes through here; the attributes say what must stay inline.
extension Scheduler {
    /// Whether `entry` is the live countdown's plain tick (a stale entry is not).
    @inline(__always)
    func isLivePlain(_ entry: TickEntry, now: Nanoseconds) -> Bool {
        let r = records[Int(entry.slot)]
        return r.epoch == entry.epoch && isPlain(r, due: entry.due, now: now)
    }

    /// A plain tick: on time, a whole interval or more before the end, nothing
    /// carried, which implies the deadline is still ahead of `now`. `runDue`
    /// delivers it inline and `takePlainTick` hands it out, both by this rule.
    /// (Nanosecond instants stay far from overflow: wrapping arithmetic is exact.)
    @inline(__always)
    func isPlain(_ r: Record, due: Nanoseconds, now: Nanoseconds) -> Bool {
        r.carriedMissed == 0 && r.deadline &- due >= r.every && now &- due < r.every
    }

    /// Queues the tick after a plain one, an interval later at the end of its
    /// interval's FIFO list, and returns the plain tick.
    @inline(__always)
    func requeuePlain(slot: Int, _ r: Record, due: Nanoseconds) -> Tick {
        let s = Int32(truncatingIfNeeded: slot)
        queue.pushInOrder(nextPlainEntry(slot: s, r, due: due), interval: r.every)
        return plainTick(slot: s, r, due: due)
    }

    /// The entry of the tick after a plain one: an interval later.
    @inline(__always)
    func nextPlainEntry(slot: Int32, _ r: Record, due: Nanoseconds) -> TickEntry {
        TickEntry(due: due &+ r.every, slot: slot, epoch: r.epoch)
    }

    /// The plain tick of the countdown in `slot` due at `due` (see `isPlain`).
    @inline(__always)
    func plainTick(slot: Int32, _ r: Record, due: Nanoseconds) -> Tick {
        Tick(key: CountdownKey(slot: slot, generation: r.generation), instant: due, remaining: r.deadline &- due,
             total: r.total, missed: 0, context: r.context)
    }

    /// Inside `BatchingSchedulerDelegate.countdownsAreDue`: the next due tick of
    /// the pass if it is a plain one (on time, a whole interval or more before the
    /// end, nothing carried), queued again as `runDue` would, and from now until
    /// the next call the tick being delivered (`now` reads its instant). nil,
    /// leaving the queue as it is, when the next due entry is anything else or
    /// nothing is due; always nil outside `countdownsAreDue`.
    public func takePlainTick() -> Tick? {
        // Every countdown of one interval, ticking on time: the head of that
        // interval's list goes straight back to its tail (the path of nearly every tick).
        if let entry = queue.headWhenEarliest, entry.due <= takingUpTo {
            let r = records[Int(entry.slot)]
            if r.epoch == entry.epoch, r.every == queue.primaryInterval, isPlain(r, due: entry.due, now: takingUpTo) {
                queue.requeuePrimaryHead(nextPlainEntry(slot: entry.slot, r, due: entry.due))
                return handOut(plainTick(slot: entry.slot, r, due: entry.due))
            }
        }
        return takeAnyPlainTick()
    }

    /// `takePlainTick` from any list, stale entries skipped. Apart, so that the
    /// common path above stays a small function.
    @inline(never)
    func takeAnyPlainTick() -> Tick? {
        // Whatever was taken from elsewhere since: the common path above needs the bound exact.
        queue.refreshElsewhereEarliest()
        while let (source, entry) = queue.earliest(seqOf: { records[Int($0)].seq }), entry.due <= takingUpTo {
            let slot = Int(entry.slot)
            let r = records[slot]
            guard r.epoch == entry.epoch else {
                queue.remove(from: source)
                continue
            }
            guard isPlain(r, due: entry.due, now: takingUpTo) else { return nil }
            queue.remove(from: source)
            return handOut(requeuePlain(slot: slot, r, due: entry.due))
        }
        return nil
    }

    /// A tick `takePlainTick` hands out, now the one being delivered.
    @inline(__always)
    func handOut(_ tick: Tick) -> Tick {
        dispatchCount &+= 1
        dispatchInstant = tick.instant
        dispatchSlot = tick.key.slot
        return tick
    }
}
