/// Where the scheduler reads time. Every clock is injected: production uses
/// `BootClock`, tests and fast-forward use `VirtualClock`.
public protocol TimeSource: AnyObject {
    /// Nanoseconds on a monotonic clock that keeps counting while the machine
    /// sleeps or the process is stopped, and ignores changes of the wall clock.
    func bootNow() -> Nanoseconds
    /// Nanoseconds since the Unix epoch, UTC.
    func wallNow() -> Nanoseconds
}
