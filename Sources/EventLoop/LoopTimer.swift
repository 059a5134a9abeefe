#if canImport(Glibc)
import Glibc
#endif
import CLinux
import CountdownCore

/// A one-shot `timerfd` on `CLOCK_BOOTTIME` (durations, rule 3), the kind of
/// timer the loop hands out to change feeds.
public final class LoopTimer: WakeUpTimer {
    public let descriptor: Int32

    /// Throws when the system refuses a timer descriptor.
    public init() throws(LoopError) {
        descriptor = timerfd_create(CLOCK_BOOTTIME, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
        guard descriptor >= 0 else {
            throw LoopError(message: "cannot create a timer: \(String(cString: strerror(errno)))")
        }
    }

    deinit { close(descriptor) }

    public func arm(afterNanoseconds nanoseconds: Int) {
        var spec = itimerspec()
        // A relative value of 0 would disarm it; 1 ns means "at the loop's next pass".
        let t = max(1, nanoseconds)
        spec.it_value = timespec(tv_sec: t / 1_000_000_000, tv_nsec: t % 1_000_000_000)
        timerfd_settime(descriptor, 0, &spec, nil)
    }

    public func disarm() {
        var spec = itimerspec()
        timerfd_settime(descriptor, 0, &spec, nil)
    }

    public func takeExpiry() -> Bool {
        var expirations: UInt64 = 0
        return read(descriptor, &expirations, 8) == 8
    }
}

extension MainLoop: WakeUpTimerSource {
    /// A timer for a change feed, polled in this loop's one `poll` through the
    /// feed's descriptors (see `follow`).
    public func makeTimer() throws -> WakeUpTimer {
        try LoopTimer()
    }
}
