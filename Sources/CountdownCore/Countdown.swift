/// Identifies one countdown in a `Scheduler`. A key whose countdown has ended
/// never matches a later countdown that reuses its storage.
public struct CountdownKey: Hashable, Sendable {
    public let slot: Int32
    public let generation: UInt32

    public init(slot: Int32, generation: UInt32) {
        self.slot = slot
        self.generation = generation
    }
}

public enum CountdownState: UInt8, Sendable, BitwiseCopyable, CustomStringConvertible {
    case running, paused, finished, cancelled

    public var description: String {
        switch self {
        case .running: "running"
        case .paused: "paused"
        case .finished: "finished"
        case .cancelled: "cancelled"
        }
    }
}

/// When a countdown ends.
public enum Deadline: Equatable, Sendable {
    /// A duration from now, measured on the boot clock.
    case after(Nanoseconds)
    /// An absolute instant on the wall clock, nanoseconds since the epoch (UTC).
    case wall(Nanoseconds)
    /// An absolute instant on the boot clock: a duration countdown picked up from a
    /// store within the boot that started it, so a wall-clock change cannot move it.
    case boot(Nanoseconds)
}

/// What a script asks for when it starts a countdown.
public struct CountdownSpec: Sendable {
    public var id: String?
    public var deadline: Deadline
    /// The tick interval.
    public var every: Nanoseconds
    /// False when nobody listens to ticks: only the end is scheduled.
    public var wantsTicks: Bool
    /// The whole length when the countdown began before this start (one picked up
    /// from a store), so `elapsed` and `progress` continue; nil: from now to the deadline.
    public var length: Nanoseconds?
    /// A value of the starter's, handed back with every tick and the end
    /// (`Tick.context`), so that the delegate finds what it keeps for the countdown
    /// in the memory the scheduler reads anyway.
    public var context: UInt64

    public init(id: String? = nil, deadline: Deadline, every: Nanoseconds = Time.nanosecondsPerSecond, wantsTicks: Bool = true,
                length: Nanoseconds? = nil, context: UInt64 = 0) {
        self.id = id
        self.deadline = deadline
        self.every = every
        self.wantsTicks = wantsTicks
        self.length = length
        self.context = context
    }
}

/// Why a countdown ended.
public enum EndReason: Sendable, Equatable {
    /// Its deadline passed.
    case finished
    /// A script cancelled it.
    case cancelled
    /// A new countdown with the same id took its place; no hook runs.
    case replaced
    /// The host stopped it after an error; no hook runs.
    case stopped
    /// An overtime countdown cancelled past its end: that end was reported
    /// already, so no hook runs; a stored one is removed, as a cancel removes it.
    case cancelledPastEnd
}

/// One event of a countdown, as hooks see it.
public struct Tick: Sendable {
    public let key: CountdownKey
    /// The instant the tick stands for, on the boot clock.
    public let instant: Nanoseconds
    public let remaining: Nanoseconds
    /// The countdown's whole length, appends included.
    public let total: Nanoseconds
    /// Ticks skipped because the process or machine stalled.
    public let missed: Int64
    /// The countdown's `CountdownSpec.context`.
    public let context: UInt64

    public init(key: CountdownKey, instant: Nanoseconds, remaining: Nanoseconds, total: Nanoseconds, missed: Int64, context: UInt64 = 0) {
        self.key = key
        self.instant = instant
        self.remaining = remaining
        self.total = total
        self.missed = missed
        self.context = context
    }

    public var elapsed: Nanoseconds { max(0, total - remaining) }

    /// 0 at the start, 1 at the end.
    public var progress: Double {
        total <= 0 ? 1 : min(1, max(0, Double(elapsed) / Double(total)))
    }

    public var breakdown: TimeBreakdown { TimeBreakdown(remaining) }
}

/// Receives every event of a scheduler, on the scheduler's thread.
public protocol SchedulerDelegate: AnyObject {
    func countdownDidTick(_ tick: Tick)
    func countdownDidEnd(_ tick: Tick, reason: EndReason)
    /// An overtime countdown (`Scheduler.allowOvertime`) reached its deadline: its
    /// end, reported once, after which it ticks on with `remaining` below zero.
    func countdownDidPassEnd(_ tick: Tick)
    /// Itself as a batching delegate, or nil (given by the extensions below).
    var asBatchingDelegate: BatchingSchedulerDelegate? { get }
}

extension SchedulerDelegate {
    public func countdownDidPassEnd(_ tick: Tick) {}
}

extension SchedulerDelegate {
    /// Itself when it is a `BatchingSchedulerDelegate` (that protocol's
    /// extension says so), nil otherwise: what `Scheduler` asks instead of a
    /// dynamic cast.
    public var asBatchingDelegate: BatchingSchedulerDelegate? { nil }
}

extension BatchingSchedulerDelegate {
    public var asBatchingDelegate: BatchingSchedulerDelegate? { self }
}

/// A delegate that takes ticks in a row where it can: the Lua host runs a row of
/// hooks inside one protected call instead of one each.
public protocol BatchingSchedulerDelegate: SchedulerDelegate {
    /// Called by `Scheduler.runDue` when a tick is due: take ticks with
    /// `Scheduler.takePlainTick()` and deliver each as `countdownDidTick` would.
    /// What is not taken, `runDue` delivers one by one as usual.
    func countdownsAreDue(_ scheduler: Scheduler)
}
