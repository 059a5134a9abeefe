#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The production clock: `CLOCK_BOOTTIME` for durations, `CLOCK_REALTIME` for dates.
///
/// Boot time is the terminal's version of the "device uptime" trick: it goes on
/// counting through suspend and `SIGSTOP`, and a user changing the clock cannot move it.
public final class BootClock: TimeSource {
    public init() {}

    public func bootNow() -> Nanoseconds {
        #if os(Linux)
        return Self.read(CLOCK_BOOTTIME)
        #else
        return Self.read(CLOCK_MONOTONIC_RAW)
        #endif
    }

    public func wallNow() -> Nanoseconds {
        Self.read(CLOCK_REALTIME)
    }

    @inline(__always)
    static func read(_ id: clockid_t) -> Nanoseconds {
        var ts = timespec()
        clock_gettime(id, &ts)
        return Nanoseconds(ts.tv_sec) * Time.nanosecondsPerSecond + Nanoseconds(ts.tv_nsec)
    }
}
