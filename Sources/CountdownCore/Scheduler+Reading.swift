// Reading a countdown's state, times and id by its key.
extension Scheduler {
    public func state(_ key: CountdownKey) -> CountdownState? {
        liveSlot(key).map { records[$0].state }
    }

    /// Remaining time, never negative; nil once the countdown has ended.
    public func remaining(_ key: CountdownKey) -> Nanoseconds? {
        guard let slot = liveSlot(key) else { return nil }
        return remaining(slot: slot, now: now)
    }

    /// Whether it runs on past its deadline (`allowOvertime`); nil once it has ended.
    public func isOvertime(_ key: CountdownKey) -> Bool? {
        liveSlot(key).map { records[$0].overtime }
    }

    /// Whether an overtime countdown has passed its end; nil once it has ended.
    public func isPastEnd(_ key: CountdownKey) -> Bool? {
        liveSlot(key).map { records[$0].pastEnd }
    }

    /// Time left, below zero past the end of an overtime countdown (running, or
    /// paused after it); nil once the countdown has ended.
    public func timeLeft(_ key: CountdownKey) -> Nanoseconds? {
        guard let slot = liveSlot(key) else { return nil }
        let r = records[slot]
        guard r.pastEnd else { return remaining(slot: slot, now: now) }
        return r.state == .paused ? r.pausedRemaining : r.deadline - now
    }

    public func total(_ key: CountdownKey) -> Nanoseconds? {
        liveSlot(key).map { records[$0].total }
    }

    /// The `CountdownSpec.context` it was started with; nil once it has ended.
    public func context(_ key: CountdownKey) -> UInt64? {
        liveSlot(key).map { records[$0].context }
    }

    public func every(_ key: CountdownKey) -> Nanoseconds? {
        liveSlot(key).map { records[$0].every }
    }

    public func id(_ key: CountdownKey) -> String? {
        liveSlot(key).flatMap { idBySlot[Int32($0)] }
    }

    /// The wall-clock deadline (UTC), whichever clock the countdown runs on.
    public func wallDeadline(_ key: CountdownKey) -> Nanoseconds? {
        guard let slot = liveSlot(key) else { return nil }
        let r = records[slot]
        if r.isWall { return wallDeadlines[Int32(slot)] }
        let deadline = r.state == .paused ? now + r.pausedRemaining : r.deadline
        return deadline + currentWallOffset
    }

    /// The deadline on the boot clock (for a paused countdown: where it would end if
    /// resumed now); nil once the countdown has ended.
    public func bootDeadline(_ key: CountdownKey) -> Nanoseconds? {
        guard let slot = liveSlot(key) else { return nil }
        let r = records[slot]
        return r.state == .paused && !r.isWall ? now + r.pausedRemaining : r.deadline
    }

    /// True for a countdown to a wall-clock instant (`at`), which follows the wall clock.
    public func followsWallClock(_ key: CountdownKey) -> Bool? {
        liveSlot(key).map { records[$0].isWall }
    }

    /// The active countdown started under `id`.
    public func key(forID id: String) -> CountdownKey? { ids[CountdownID(id)] }

    /// Active countdowns in start order.
    public var activeKeys: [CountdownKey] {
        var live: [(UInt64, CountdownKey)] = []
        live.reserveCapacity(activeCount)
        for i in 0..<records.count {
            let r = records[i]
            if r.live { live.append((r.seq, CountdownKey(slot: Int32(i), generation: r.generation))) }
        }
        return live.sorted { $0.0 < $1.0 }.map(\.1)
    }
}
