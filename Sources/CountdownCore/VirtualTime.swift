/// Driving a scheduler on a `VirtualClock`: the whole fake-timer testing story
/// in four moves, `advance`, `next`, `runAll` and `stall`. Everything fires
/// synchronously on the caller's thread, with no yielding heuristics.
extension Scheduler {
    /// Fires every tick due up to `instant`, in order; while a hook runs the
    /// clock reads that tick's instant. Ends with the clock at `instant`.
    public func advance(_ clock: VirtualClock, to instant: Nanoseconds) {
        while let due = nextDue(), due <= instant {
            clock.set(boot: max(due, clock.boot))
            runDue()
        }
        if instant > clock.boot { clock.set(boot: instant) }
    }

    /// Moves to the next due tick and fires it. Returns the new time, or nil
    /// when nothing is scheduled.
    @discardableResult
    public func next(_ clock: VirtualClock) -> Nanoseconds? {
        guard let due = nextDue() else { return nil }
        clock.set(boot: max(due, clock.boot))
        runDue()
        return clock.boot
    }

    /// Fires ticks until no countdown remains. Throws when more than `limit` ticks
    /// fire first, so a script that keeps restarting itself fails loudly.
    public func runAll(_ clock: VirtualClock, limit: Int) throws(RunAllLimitReached) {
        let start = dispatchCount
        while activeCount > 0, nextDue() != nil {
            if dispatchCount - start >= limit { throw RunAllLimitReached(limit: limit, time: clock.boot) }
            next(clock)
        }
    }

    /// Time passes with no ticks, as when the process is stopped or the machine
    /// sleeps; then the catch-up pass runs exactly as it does in production.
    public func stall(_ clock: VirtualClock, for duration: Nanoseconds) {
        clock.set(boot: clock.boot + max(0, duration))
        runDue()
    }
}

public struct RunAllLimitReached: Error, CustomStringConvertible {
    public let limit: Int
    public let time: Nanoseconds

    public var description: String {
        "run_all stopped after \(limit) ticks at \(Time.seconds(time)) s with countdowns still active (raise `limit` or check for a countdown that restarts itself)"
    }
}
