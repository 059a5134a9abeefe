// Changing a running countdown: append, overtime, pause, resume, tick now,
// adopt a stored state, cancel.
extension Scheduler {
    /// Moves the deadline later (or earlier, for a negative amount) by `amount`.
    /// Taking off as much as is left, or more, takes off what is left: the
    /// countdown ends at once, finished (its end is reported once, here), whether
    /// it was running or paused. Returns false when the countdown had ended.
    @discardableResult
    public func append(_ key: CountdownKey, _ amount: Nanoseconds) -> Bool {
        guard let slot = liveSlot(key) else { return false }
        let takesOff = amount < 0
        // Never below nothing left: the length keeps what has elapsed.
        let amount = takesOff ? max(amount, -remaining(slot: slot, now: now)) : amount
        records[slot].total += amount
        if records[slot].isWall { wallDeadlines[Int32(slot), default: 0] += amount }
        if records[slot].state == .paused {
            records[slot].pausedRemaining += amount
            if records[slot].isWall { records[slot].deadline += amount }
            if records[slot].pastEnd, records[slot].pausedRemaining > 0 { records[slot].pastEnd = false }
            // An overtime countdown reaches its end when it runs again (resume).
            if takesOff, records[slot].pausedRemaining <= 0, !records[slot].overtime { end(key, reason: .finished, at: now) }
            return true
        }
        records[slot].deadline += amount
        // An overtime countdown goes on to its end and past it (rescheduled below).
        if takesOff, records[slot].deadline <= now, !records[slot].overtime {
            end(key, reason: .finished, at: now)
            return true
        }
        // Time added past the end of an overtime countdown: its end comes again.
        if records[slot].pastEnd, records[slot].deadline > now {
            records[slot].pastEnd = false
            reschedule(slot, now: now)
            return true
        }
        // Whole intervals keep the queued tick aligned; anything else re-phases it.
        if !records[slot].wantsTicks || amount % records[slot].every != 0 || amount < 0 {
            reschedule(slot, now: now)
        }
        return true
    }

    /// Lets the countdown run on past its deadline: its end is reported once
    /// (`SchedulerDelegate.countdownDidPassEnd`), then it ticks on, aligned to the
    /// deadline, with `remaining` below zero (the time past it), until cancelled.
    /// Returns false when the countdown has ended.
    /// `endPassed`: its end came before this process ran it (picked up from the
    /// store past its end), so it is not reported again: the first tick shows the
    /// time past the end.
    @discardableResult
    public func allowOvertime(_ key: CountdownKey, endPassed: Bool = false) -> Bool {
        guard let slot = liveSlot(key) else { return false }
        records[slot].overtime = true
        if endPassed { records[slot].pastEnd = true }
        return true
    }

    /// Freezes the remaining time. Returns false unless the countdown was running.
    /// An `at` countdown's deadline stays where it is: pausing it freezes what it
    /// shows, and `resume` shows the true remaining time again.
    @discardableResult
    public func pause(_ key: CountdownKey) -> Bool {
        guard let slot = liveSlot(key), records[slot].state == .running else { return false }
        // Past the end, the time past it is kept (below zero) to count on from.
        records[slot].pausedRemaining = records[slot].pastEnd ? records[slot].deadline - now : max(0, records[slot].deadline - now)
        records[slot].state = .paused
        records[slot].epoch &+= 1
        return true
    }

    /// Continues from the remaining time frozen by `pause`. The next tick lands on
    /// the same alignment as before. An `at` countdown continues toward its
    /// unchanged deadline (ending at once if that passed meanwhile).
    /// Returns false unless the countdown was paused.
    @discardableResult
    public func resume(_ key: CountdownKey) -> Bool {
        guard let slot = liveSlot(key), records[slot].state == .paused else { return false }
        let now = self.now
        if records[slot].isWall {
            records[slot].deadline = (wallDeadlines[Int32(slot)] ?? 0) - currentWallOffset
        } else {
            records[slot].deadline = now + records[slot].pausedRemaining
        }
        records[slot].state = .running
        records[slot].started = now
        reschedule(slot, now: now)
        return true
    }

    /// One tick at once with the countdown's remaining time now, as `start` fires
    /// one: the host calls it after a script's `append`, `pause` or `resume`, so
    /// that what a countdown shows changes with it. The queued ticks keep their
    /// alignment. None when nobody listens to ticks, when the countdown has ended,
    /// when called from the countdown's own tick hook (which holds the tick of this
    /// instant), or from inside another immediate tick (so hooks cannot recurse).
    public func tickNow(_ key: CountdownKey) {
        guard let slot = liveSlot(key) else { return }
        let r = records[slot]
        guard r.wantsTicks, !inImmediateTick, dispatchSlot != Int32(slot) else { return }
        let now = self.now
        let remaining = r.state == .paused || r.pastEnd ? (r.state == .paused ? r.pausedRemaining : r.deadline - now) : max(0, r.deadline - now)
        inImmediateTick = true
        dispatch(Tick(key: key, instant: now, remaining: remaining, total: r.total, missed: 0, context: r.context), to: delegate)
        inImmediateTick = false
    }

    /// Puts a countdown onto a state decided elsewhere (another process changed its
    /// stored copy): `remaining` left of a length of `total`, paused or running.
    /// A tick fires at once with the new remaining time, as after a start; a
    /// running countdown with nothing left ends, finished. Returns false when the
    /// countdown has already ended.
    @discardableResult
    public func adopt(_ key: CountdownKey, remaining: Nanoseconds, total: Nanoseconds, paused: Bool) -> Bool {
        guard let slot = liveSlot(key) else { return false }
        let now = self.now
        records[slot].total = total
        if paused {
            // An overtime countdown paused past its end keeps the time past it.
            let pastEnd = records[slot].overtime && remaining < 0
            records[slot].pastEnd = pastEnd
            records[slot].pausedRemaining = pastEnd ? remaining : max(0, remaining)
            records[slot].state = .paused
            records[slot].epoch &+= 1
        } else {
            records[slot].state = .running
            records[slot].started = now
            records[slot].deadline = now + remaining
            if records[slot].isWall { wallDeadlines[Int32(slot)] = records[slot].deadline + currentWallOffset }
            // An overtime countdown runs into its end (reported by its next tick)
            // and past it; moved back before its end, its end comes again.
            if remaining > 0 { records[slot].pastEnd = false }
            if remaining <= 0, !records[slot].overtime {
                end(key, reason: .finished, at: now)
                return true
            }
            reschedule(slot, now: now)
        }
        let shown = records[slot].pastEnd ? remaining : max(0, remaining)
        dispatch(Tick(key: key, instant: now, remaining: shown, total: total, missed: 0, context: records[slot].context), to: delegate)
        return true
    }

    /// Ends a countdown with `.cancelled` (its done hook runs) or `.stopped` (none runs).
    /// Returns false when it had already ended.
    @discardableResult
    public func cancel(_ key: CountdownKey, reason: EndReason = .cancelled) -> Bool {
        guard liveSlot(key) != nil else { return false }
        end(key, reason: reason, at: now)
        return true
    }

    /// Cancels every active countdown, in start order.
    public func cancelAll() {
        owner.assertCurrent("the scheduler")
        for key in activeKeys { cancel(key) }
    }
}
