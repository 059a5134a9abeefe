/// One reading of every clock a stored countdown depends on: the boot clock, the
/// wall clock (UTC) and the id of the current boot.
public struct StoreInstant: Equatable, Sendable {
    /// Nanoseconds on the boot clock.
    public var boot: Nanoseconds
    /// Nanoseconds since the Unix epoch, UTC.
    public var wall: Nanoseconds
    /// The kernel's id of this boot (`/proc/sys/kernel/random/boot_id`); nil when unknown.
    public var bootID: String?

    public init(boot: Nanoseconds, wall: Nanoseconds, bootID: String?) {
        self.boot = boot
        self.wall = wall
        self.bootID = bootID
    }
}

extension StoreInstant {
    /// Now, on this machine's boot and wall clocks, naming `bootID` as the boot
    /// (nil where the store keeps none, as Redis).
    public static func now(bootID: String?, clock: BootClock = BootClock()) -> StoreInstant {
        StoreInstant(boot: clock.bootNow(), wall: clock.wallNow(), bootID: bootID)
    }
}

/// A countdown as a store keeps it between processes.
///
/// A running countdown keeps its end twice: as a UTC wall-clock instant, which
/// survives a reboot, and as an instant on the boot clock with the boot's id, which
/// a wall-clock change cannot move. Within the boot that stored it, a duration
/// countdown uses the boot-clock deadline; after a reboot it falls back to the
/// wall clock. An `at` countdown always follows the wall clock.
public struct StoredCountdown: Equatable, Sendable {
    public enum State: String, Sendable, CaseIterable {
        case running, paused, finished
    }

    /// Which clock the deadline belongs to.
    public enum Kind: String, Sendable, CaseIterable {
        /// Started with `seconds`: a duration.
        case duration
        /// Started with `at`: a wall-clock instant.
        case wall
    }

    // Declared in this order, the references first and the one-byte fields last, so
    // that little is padding: 116 bytes a record (stride 120) where the order of
    // their meaning took 136 (issue 53: past 128 bytes every copy of a record
    // became a call to memcpy, 200 instructions of a fetch).
    public var id: String
    /// The boot in which `bootDeadline` was taken.
    public var bootID: String?
    /// What people call it (`--title`, `title =`); nil when it has none. Within
    /// `CountdownAnnotations`' limits.
    public var title: String?
    /// The names of the actions to run at its end, in order (`--action`,
    /// `actions =`). Names only: what a name runs is configured where the actions
    /// run (`cdscript serve`), never stored.
    public var actions: [String]
    /// The end, UTC. For a paused countdown: where it would have ended had it been
    /// resumed when it was stored.
    public var wallDeadline: Nanoseconds
    /// The tick interval.
    public var every: Nanoseconds
    /// The whole length, appends included.
    public var total: Nanoseconds
    /// When this record was last written, UTC.
    public var updatedAt: Nanoseconds
    /// The remaining time frozen by a pause; nil unless paused. Below zero for an
    /// overtime countdown paused past its end (the time past it, frozen).
    public var pausedRemaining: Nanoseconds?
    /// The end on the boot clock of boot `bootID`.
    public var bootDeadline: Nanoseconds?
    public var state: State
    public var kind: Kind
    /// Started with `overtime`: past its end it runs on (a negative `timeLeft`,
    /// shown as +time) until it is cancelled, and is never finished by time alone.
    public var overtime: Bool

    public init(id: String, state: State, kind: Kind, wallDeadline: Nanoseconds, pausedRemaining: Nanoseconds? = nil,
                every: Nanoseconds, total: Nanoseconds, bootID: String?, bootDeadline: Nanoseconds?, updatedAt: Nanoseconds,
                overtime: Bool = false, title: String? = nil, actions: [String] = []) {
        self.id = id
        self.state = state
        self.kind = kind
        self.wallDeadline = wallDeadline
        self.pausedRemaining = pausedRemaining
        self.every = every
        self.total = total
        self.bootID = bootID
        self.bootDeadline = bootDeadline
        self.updatedAt = updatedAt
        self.overtime = overtime
        self.title = title
        self.actions = actions
    }

    /// True when the boot-clock deadline may be used at `now`: same boot, and one was stored.
    public func isSameBoot(_ now: StoreInstant) -> Bool {
        bootDeadline != nil && bootID != nil && bootID == now.bootID
    }

    /// Time left at `now`, negative once the end has passed; 0 when finished.
    public func timeLeft(at now: StoreInstant) -> Nanoseconds {
        switch state {
        case .finished: return 0
        case .paused: return pausedRemaining ?? 0
        case .running:
            if kind == .duration, isSameBoot(now), let bootDeadline { return bootDeadline - now.boot }
            return wallDeadline - now.wall
        }
    }

    /// Time left at `now`, never negative.
    public func remaining(at now: StoreInstant) -> Nanoseconds { max(0, timeLeft(at: now)) }

    /// The state at `now`: a running countdown whose end has passed is finished,
    /// even if no process was there to see it; an overtime one runs on past its
    /// end (`isPastEnd`) until it is cancelled.
    public func effectiveState(at now: StoreInstant) -> State {
        state == .running && !overtime && timeLeft(at: now) <= 0 ? .finished : state
    }

    /// True for an overtime countdown past its end at `now`, running, or paused
    /// after its end (a countdown paused at 0 meets its end when it is resumed):
    /// its time past the end is `-timeLeft(at: now)`.
    public func isPastEnd(at now: StoreInstant) -> Bool {
        guard overtime else { return false }
        switch state {
        case .running: return timeLeft(at: now) <= 0
        case .paused: return (pausedRemaining ?? 0) < 0
        case .finished: return false
        }
    }

    /// The time past the end of an overtime countdown at `now`; 0 before it.
    public func timePastEnd(at now: StoreInstant) -> Nanoseconds {
        isPastEnd(at: now) ? -timeLeft(at: now) : 0
    }

    /// What a reader is shown of a countdown at one instant: `State`, and
    /// `overtime` for an overtime countdown running past its end. Every reader
    /// (`list`, `status`, the bars, `process.stored()`) asks `shownState(at:)`,
    /// so that none calls a countdown past its end "running" or "finished".
    public enum ShownState: String, Sendable, CaseIterable {
        case running, paused, overtime, finished
    }

    /// The state every reader shows at `now`: running, paused or finished as
    /// `effectiveState` says, or overtime for an overtime countdown running past
    /// its end (paused past it, it is paused).
    public func shownState(at now: StoreInstant) -> ShownState {
        if state == .running && isPastEnd(at: now) { return .overtime }
        switch effectiveState(at: now) {
        case .running: return .running
        case .paused: return .paused
        case .finished: return .finished
        }
    }

    /// `shownState(at:)` as `cdscript list` writes it.
    public func listedState(at now: StoreInstant) -> String { shownState(at: now).rawValue }

    /// The end on the wall clock as it stands at `now` (for a paused countdown,
    /// where it would end if resumed at `now`).
    public func wallDeadline(at now: StoreInstant) -> Nanoseconds {
        switch state {
        case .paused: return now.wall + (pausedRemaining ?? 0)
        case .finished: return wallDeadline
        case .running:
            return kind == .duration && isSameBoot(now) ? now.wall + timeLeft(at: now) : wallDeadline
        }
    }

    /// How a scheduler picks this countdown up at `now`.
    public enum Resumption: Equatable, Sendable {
        /// Start it with this deadline; it has `remaining` left.
        case running(Deadline, remaining: Nanoseconds)
        /// Start it paused with this much left.
        case paused(remaining: Nanoseconds)
        /// It ended while nothing ran (or was already marked finished).
        case finished
    }

    /// How to continue this countdown at `now`, with the time that passed while no
    /// process ran it. `now` of the scheduler that starts it must be `now.boot`.
    public func resumption(at now: StoreInstant) -> Resumption {
        switch effectiveState(at: now) {
        case .finished: return .finished
        case .paused: return .paused(remaining: pausedRemaining ?? 0)
        case .running:
            let left = timeLeft(at: now)
            switch kind {
            case .wall: return .running(.wall(wallDeadline), remaining: left)
            case .duration:
                if isSameBoot(now), let bootDeadline { return .running(.boot(bootDeadline), remaining: left) }
                return .running(.after(left), remaining: left)
            }
        }
    }

    // MARK: Changes, applied to the stored record itself so that changes made by
    // several processes add up instead of overwriting each other.

    /// Moves the end by `amount`; a negative amount takes time off: the remaining
    /// time stops at 0, and a countdown left with nothing, running or paused, is
    /// finished. The length moves by what was really added or taken. Returns false when there is nothing to
    /// move (finished, or its end has passed), and, changing nothing, when the
    /// result would leave `CountdownRange`: ask `appendRefusal` first to say why.
    @discardableResult
    public mutating func append(_ amount: Nanoseconds, at now: StoreInstant) -> Bool {
        guard appendRefusal(amount, at: now) == nil else { return false }
        switch effectiveState(at: now) {
        case .finished: return false
        case .paused:
            let before = pausedRemaining ?? 0
            let after = max(0, before + amount)
            pausedRemaining = after
            // A paused `at` countdown keeps its deadline, moved by the amount.
            if kind == .wall { wallDeadline += after - before }
            total = max(0, total + (after - before))
        case .running:
            // Only time taken off stops at the end; time added past the end of an
            // overtime countdown moves its end from where it was.
            let moved = amount < 0 ? max(amount, -timeLeft(at: now)) : amount
            wallDeadline += moved
            if let bootDeadline { self.bootDeadline = bootDeadline + moved }
            total = max(0, total + moved)
        }
        updatedAt = now.wall
        // Time taken off that leaves nothing ends it here and now, paused or not,
        // so that every process following the record ends it too (`finish(at:)`
        // takes only a running record at its end).
        // An overtime countdown runs into its end and past it instead.
        if amount < 0, remaining(at: now) <= 0, !overtime {
            state = .finished
            pausedRemaining = nil
        }
        return true
    }

    /// Why appending `amount` at `now` would leave the range both stores keep,
    /// naming the bound; nil when it may be appended (or there is nothing to
    /// append to). Taking time off is refused only past the end of an overtime
    /// countdown (`overtimeTakeOffRefusal`).
    public func appendRefusal(_ amount: Nanoseconds, at now: StoreInstant) -> String? {
        let longest = CountdownRange.longestDuration
        guard amount <= longest, amount >= -longest else {
            return "the amount is more than \(CountdownRange.longestText), the longest a countdown can be"
        }
        if amount < 0, isPastEnd(at: now) {
            return StoredCountdown.overtimeTakeOffRefusal
        }
        let state = effectiveState(at: now)
        guard amount > 0, state != .finished else { return nil }
        let left = state == .paused ? (pausedRemaining ?? 0) : timeLeft(at: now)
        // Written as differences from the bound: these values were never range-checked.
        if total > longest - amount || left > longest - amount {
            return "the countdown would be longer than \(CountdownRange.longestText), the longest a countdown can be"
        }
        let movesWallDeadline = state == .running || kind == .wall
        let latest = CountdownRange.latestInstant - amount
        if movesWallDeadline && wallDeadline > latest || state == .running && (bootDeadline ?? 0) > latest {
            return "its end would be later than \(CountdownRange.latestInstantText), the latest a countdown can end"
        }
        return nil
    }

    /// Freezes the remaining time. Returns false unless it was running.
    @discardableResult
    public mutating func pause(at now: StoreInstant) -> Bool {
        guard effectiveState(at: now) == .running else { return false }
        // Past the end of an overtime countdown, the time past it is kept (below zero).
        pausedRemaining = isPastEnd(at: now) ? timeLeft(at: now) : remaining(at: now)
        wallDeadline = now.wall + pausedRemaining!
        state = .paused
        updatedAt = now.wall
        return true
    }

    /// Continues from the frozen remaining time. Returns false unless it was paused.
    @discardableResult
    public mutating func resume(at now: StoreInstant) -> Bool {
        guard state == .paused else { return false }
        // An `at` deadline is a fact about the world: resuming never moves it.
        if kind == .duration {
            let left = pausedRemaining ?? 0
            wallDeadline = now.wall + left
            bootDeadline = now.boot + left
            bootID = now.bootID
        }
        pausedRemaining = nil
        state = .running
        updatedAt = now.wall
        return true
    }

    /// Marks it finished if its end has come at `now` (within `tolerance`), so a
    /// process whose copy ends never finishes one that another process extended.
    @discardableResult
    /// An overtime countdown is never finished: it runs on past its end until cancelled.
    public mutating func finish(at now: StoreInstant, tolerance: Nanoseconds = 50_000_000) -> Bool {
        guard state == .running, !overtime, timeLeft(at: now) <= tolerance else { return false }
        state = .finished
        pausedRemaining = nil
        updatedAt = now.wall
        return true
    }

    /// Why time cannot be taken off an overtime countdown past its end: it has
    /// no time left, and its time past the end is a fact, not a setting.
    public static let overtimeTakeOffRefusal =
        "it is past its end, in overtime: there is no time left to take off (add time to count down again, or cancel it)"
}
