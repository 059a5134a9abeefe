import CountdownCore

/// Seconds to whole nanoseconds, rounded: `s(0.3) == 300_000_000` exactly.
func s(_ seconds: Double) -> Nanoseconds {
    Nanoseconds((seconds * 1e9).rounded())
}

/// One event as the delegate saw it.
struct Event: Equatable, CustomStringConvertible {
    enum Kind: Equatable {
        case tick
        case end(EndReason)
    }

    var kind: Kind
    var key: CountdownKey
    var instant: Nanoseconds
    var remaining: Nanoseconds
    var total: Nanoseconds
    var missed: Int64
    /// How many delegate calls were already on the stack: 0 for an event fired by
    /// the scheduler itself, 1 for one fired from inside a hook, and so on.
    var depth: Int

    var isTick: Bool { kind == .tick }
    var isEnd: Bool { !isTick }

    var description: String {
        let what: String
        switch kind {
        case .tick: what = "tick"
        case .end(let reason): what = "end(\(reason))"
        }
        return "\(what) #\(key.slot).\(key.generation) at \(Time.seconds(instant)) remaining \(Time.seconds(remaining)) missed \(missed) depth \(depth)"
    }
}

/// A `SchedulerDelegate` that records every event and can run a closure inside
/// a hook, to exercise re-entrant calls into the scheduler.
final class Recorder: SchedulerDelegate {
    private(set) var events: [Event] = []
    private var depth = 0
    /// Runs inside `countdownDidTick`, after the tick is recorded.
    var onTick: ((Tick) -> Void)?
    /// Runs inside `countdownDidEnd`, after the end is recorded.
    var onEnd: ((Tick, EndReason) -> Void)?

    func countdownDidTick(_ tick: Tick) {
        events.append(Event(kind: .tick, key: tick.key, instant: tick.instant, remaining: tick.remaining,
                            total: tick.total, missed: tick.missed, depth: depth))
        depth += 1
        defer { depth -= 1 }
        onTick?(tick)
    }

    func countdownDidEnd(_ tick: Tick, reason: EndReason) {
        events.append(Event(kind: .end(reason), key: tick.key, instant: tick.instant, remaining: tick.remaining,
                            total: tick.total, missed: tick.missed, depth: depth))
        depth += 1
        defer { depth -= 1 }
        onEnd?(tick, reason)
    }

    func clear() { events.removeAll() }

    func events(_ key: CountdownKey) -> [Event] { events.filter { $0.key == key } }
    func ticks(_ key: CountdownKey) -> [Event] { events(key).filter(\.isTick) }
    func ends(_ key: CountdownKey) -> [Event] { events(key).filter(\.isEnd) }
    /// Remaining time of each tick of `key`, in order.
    func remainings(_ key: CountdownKey) -> [Nanoseconds] { ticks(key).map(\.remaining) }
    /// Instant of each tick of `key`, in order.
    func instants(_ key: CountdownKey) -> [Nanoseconds] { ticks(key).map(\.instant) }
    var tickCount: Int { events.filter(\.isTick).count }
    var endCount: Int { events.filter(\.isEnd).count }
}

/// A recorder that takes plain ticks in rows, as the Lua host does
/// (`BatchingSchedulerDelegate`): what it records must be what `Recorder` records
/// when `runDue` delivers every tick itself.
final class BatchingRecorder: BatchingSchedulerDelegate {
    let recorder: Recorder
    /// Ticks taken with `takePlainTick`.
    private(set) var taken = 0

    init(_ recorder: Recorder) { self.recorder = recorder }

    func countdownsAreDue(_ scheduler: Scheduler) {
        while let tick = scheduler.takePlainTick() {
            taken += 1
            recorder.countdownDidTick(tick)
        }
    }

    func countdownDidTick(_ tick: Tick) { recorder.countdownDidTick(tick) }
    func countdownDidEnd(_ tick: Tick, reason: EndReason) { recorder.countdownDidEnd(tick, reason: reason) }
}

/// A scheduler on a virtual clock with a recorder attached.
final class Harness {
    let clock: VirtualClock
    let scheduler: Scheduler
    let recorder = Recorder()
    /// Set when the harness takes plain ticks in rows.
    let batching: BatchingRecorder?

    init(boot: Nanoseconds = 0, wall: Nanoseconds = 1_798_761_600 * Time.nanosecondsPerSecond, batching: Bool = false) {
        clock = VirtualClock(boot: boot, wall: wall)
        scheduler = Scheduler(clock: clock)
        self.batching = batching ? BatchingRecorder(recorder) : nil
        if let rows = self.batching {
            scheduler.delegate = rows
        } else {
            scheduler.delegate = recorder
        }
    }

    var events: [Event] { recorder.events }

    /// Starts and announces a countdown `seconds` long, ticking every `every` seconds.
    @discardableResult
    func start(_ seconds: Double, every: Double = 1, id: String? = nil, wantsTicks: Bool = true) -> CountdownKey {
        start(.after(s(seconds)), every: every, id: id, wantsTicks: wantsTicks)
    }

    @discardableResult
    func start(_ deadline: Deadline, every: Double = 1, id: String? = nil, wantsTicks: Bool = true) -> CountdownKey {
        let key = scheduler.start(CountdownSpec(id: id, deadline: deadline, every: s(every), wantsTicks: wantsTicks))
        scheduler.announce(key)
        return key
    }

    /// Fires everything due up to `seconds` on the boot clock.
    func advance(to seconds: Double) {
        scheduler.advance(clock, to: s(seconds))
    }

    /// Time passes with no ticks, then one catch-up pass runs.
    func stall(for seconds: Double) {
        scheduler.stall(clock, for: s(seconds))
    }

    func runAll(limit: Int = 1_000_000) throws {
        try scheduler.runAll(clock, limit: limit)
    }

    var now: Nanoseconds { clock.boot }
}

/// SplitMix64: a small seeded generator, so property tests are repeatable.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
