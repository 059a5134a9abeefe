/// Several schedulers on one `VirtualClock`: the processes of one simulated
/// machine (`cdscript test`'s `process.start`). Moving the clock fires every
/// member's due ticks in time order, as if each process ran its own loop on the
/// same machine; at one instant, members fire in the order they were added.
///
/// `settle` runs before the first step and after each one, with no hook running:
/// the place to hand each process the changes the others made to the store.
public final class SchedulerGroup {
    public let clock: VirtualClock
    /// The members, in the order they fire at a shared instant.
    public private(set) var schedulers: [Scheduler]
    public var settle: () -> Void = {}

    public init(clock: VirtualClock, schedulers: [Scheduler]) {
        self.clock = clock
        self.schedulers = schedulers
    }

    /// Adds a member (a process started, or resumed after a stop).
    public func add(_ scheduler: Scheduler) {
        if !schedulers.contains(where: { $0 === scheduler }) { schedulers.append(scheduler) }
    }

    /// Removes a member (a process killed or stopped): its ticks no longer fire.
    public func remove(_ scheduler: Scheduler) {
        schedulers.removeAll { $0 === scheduler }
    }

    /// True while a hook of any member runs.
    public var isDispatching: Bool { schedulers.contains { $0.isDispatching } }

    /// The earliest due instant of any member.
    public func nextDue() -> Nanoseconds? {
        schedulers.compactMap { $0.nextDue() }.min()
    }

    /// Fires, in member order, every tick due at the clock's instant.
    private func fireDue() {
        var index = 0
        while index < schedulers.count {
            let scheduler = schedulers[index]
            if let due = scheduler.nextDue(), due <= clock.boot {
                scheduler.runDue()
                settle()
            }
            index += 1
        }
    }

    /// `Scheduler.advance` for every member: each due tick up to `instant`, in time order.
    public func advance(to instant: Nanoseconds) {
        settle()
        while let due = nextDue(), due <= instant {
            clock.set(boot: max(due, clock.boot))
            fireDue()
        }
        if instant > clock.boot { clock.set(boot: instant) }
    }

    /// `Scheduler.next` for every member: moves to the earliest due instant and
    /// fires what every member has due then. Nil when nothing is scheduled.
    @discardableResult
    public func next() -> Nanoseconds? {
        settle()
        guard let due = nextDue() else { return nil }
        clock.set(boot: max(due, clock.boot))
        fireDue()
        return clock.boot
    }

    /// `Scheduler.runAll` for every member: until no member has a countdown left.
    public func runAll(limit: Int) throws(RunAllLimitReached) {
        func dispatched() -> Int { schedulers.reduce(0) { $0 &+ $1.dispatchCount } }
        let start = dispatched()
        settle()
        while schedulers.contains(where: { $0.activeCount > 0 }), nextDue() != nil {
            if dispatched() &- start >= limit { throw RunAllLimitReached(limit: limit, time: clock.boot) }
            next()
        }
    }

    /// The whole machine stopped (slept) for `duration`; then each member's catch-up pass.
    public func stall(for duration: Nanoseconds) {
        clock.set(boot: clock.boot + max(0, duration))
        runDue()
    }

    /// One pass of every member at the current instant (after a wall-clock jump, say).
    public func runDue() {
        settle()
        for scheduler in schedulers {
            scheduler.runDue()
            settle()
        }
    }
}
