/// A clock on which time flows `speed` times faster than on its base clock:
/// `cdscript run --speed N`. Everything else (the scheduler, catch-up after a
/// stall, `at` deadlines) runs on the same machinery as in a normal run.
///
/// Boot time is `origin + (base - origin) * speed`, with `origin` the base
/// clock's boot time when this clock was made, so a run starts at the real
/// instant and then moves faster. Wall time moves with scaled boot time and
/// keeps the base clock's offset, so a real change of the wall clock still shows.
public final class ScaledClock: TimeSource {
    public let base: TimeSource
    public let speed: Double
    /// The base clock's boot time when this clock was made.
    public let origin: Nanoseconds

    /// Why a speed was refused.
    public struct InvalidSpeed: Error, CustomStringConvertible {
        public let speed: Double
        /// The highest speed this clock could honour, when the speed was too high.
        public var maximum: Double?
        public var description: String {
            if let maximum {
                return "the speed must be at most \(Int64(maximum)) here, got \(speed): scaled time must run for "
                    + "\(ScaledClock.horizon / 3_600_000_000_000) hour of real time before it reaches the clock's end "
                    + "(2^61 ns on the boot clock)"
            }
            return "the speed must be a finite number greater than 0, got \(speed)"
        }
    }

    /// Real time a scaled clock must be able to run before its scaled time reaches
    /// `Time.maximumDuration` (where it would stop): one hour.
    public static let horizon: Nanoseconds = 3_600_000_000_000

    /// The highest speed at which a clock starting at boot time `origin` keeps
    /// moving for `horizon` of real time.
    public static func maximumSpeed(origin: Nanoseconds) -> Double {
        (Double(Time.maximumDuration - max(0, origin)) / Double(horizon)).rounded(.down)
    }

    public init(base: TimeSource, speed: Double) throws(InvalidSpeed) {
        guard speed.isFinite, speed > 0 else { throw InvalidSpeed(speed: speed) }
        let origin = base.bootNow()
        let maximum = Self.maximumSpeed(origin: origin)
        guard speed <= maximum else { throw InvalidSpeed(speed: speed, maximum: maximum) }
        self.base = base
        self.speed = speed
        self.origin = origin
    }

    public func bootNow() -> Nanoseconds {
        scaled(base.bootNow())
    }

    public func wallNow() -> Nanoseconds {
        let real = base.bootNow()
        return base.wallNow() + (scaled(real) - real)
    }

    /// The scaled instant standing for the base clock's instant `real`
    /// (rounded down: a scaled instant has come only once it is fully reached).
    public func scaled(_ real: Nanoseconds) -> Nanoseconds {
        origin + Self.clamp((Double(real - origin) * speed).rounded(.down))
    }

    /// The earliest base-clock instant at which this clock reads `instant` or
    /// later: where a real timer must be armed for a scaled deadline, so that
    /// it never wakes the loop before its tick is due, nor later than needed.
    ///
    /// An instant scaled time never reaches (past its saturation at
    /// `Time.maximumDuration`) maps to `Time.maximumDuration`: a timer armed there
    /// never fires. Every step is bounded: a guess from floating point, then a
    /// binary search over `scaled`, which never decreases.
    public func baseInstant(_ instant: Nanoseconds) -> Nanoseconds {
        guard instant > origin else { return origin - Self.clamp((Double(origin - instant) / speed).rounded(.down)) }
        let never = Time.maximumDuration
        if scaled(never) < instant { return never }
        let guess = origin + Self.clamp((Double(instant - origin) / speed).rounded(.up))
        // Floating point can be off either way: bracket the answer in [low, high],
        // with scaled(low) < instant <= scaled(high), widening at most 62 times.
        var low = origin, high = never
        var step: Nanoseconds = 1
        for _ in 0..<62 {
            let candidate = min(never, guess &+ step)
            if scaled(candidate) >= instant { high = candidate; break }
            low = candidate
            step = step &* 2
        }
        step = 1
        for _ in 0..<62 {
            let candidate = max(low, guess - step)
            if candidate == low || scaled(candidate) < instant { low = max(low, candidate); break }
            high = min(high, candidate)
            step = step &* 2
        }
        // At most 63 halvings of a range within [origin, 2^61].
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if scaled(middle) >= instant { high = middle } else { low = middle }
        }
        return high
    }

    private static func clamp(_ value: Double) -> Nanoseconds {
        let limit = Double(Time.maximumDuration)
        return Nanoseconds(min(max(value, -limit), limit))
    }
}
