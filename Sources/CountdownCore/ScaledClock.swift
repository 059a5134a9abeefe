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
        public var description: String {
            "the speed must be a finite number greater than 0, got \(speed)"
        }
    }

    public init(base: TimeSource, speed: Double) throws(InvalidSpeed) {
        guard speed.isFinite, speed > 0 else { throw InvalidSpeed(speed: speed) }
        self.base = base
        self.speed = speed
        self.origin = base.bootNow()
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
    public func baseInstant(_ instant: Nanoseconds) -> Nanoseconds {
        guard instant > origin else { return origin - Self.clamp((Double(origin - instant) / speed).rounded(.down)) }
        var real = origin + Self.clamp((Double(instant - origin) / speed).rounded(.up))
        // Floating point can be off by a few nanoseconds either way.
        while scaled(real) < instant { real += 1 }
        while real > origin, scaled(real - 1) >= instant { real -= 1 }
        return real
    }

    private static func clamp(_ value: Double) -> Nanoseconds {
        let limit = Double(Time.maximumDuration)
        return Nanoseconds(min(max(value, -limit), limit))
    }
}
