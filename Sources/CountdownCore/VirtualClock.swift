/// A clock that moves only when told to. Tests and fast-forward runs use it.
///
/// Boot time starts at 0. Wall time starts at `wallStart` and moves with boot
/// time, except when `setWall` makes it jump, as a user changing the system clock would.
public final class VirtualClock: TimeSource {
    public private(set) var boot: Nanoseconds
    private var wallOffset: Nanoseconds

    public init(boot: Nanoseconds = 0, wall: Nanoseconds = 1_798_761_600 * Time.nanosecondsPerSecond) {
        self.boot = boot
        self.wallOffset = wall - boot
    }

    public func bootNow() -> Nanoseconds { boot }
    public func wallNow() -> Nanoseconds { boot + wallOffset }

    /// Moves boot (and with it wall) time to `instant`. Time never runs backwards.
    public func set(boot instant: Nanoseconds) {
        precondition(instant >= boot, "virtual time cannot run backwards")
        boot = instant
    }

    /// Starts the clock again at `boot` and `wall`, even earlier than now: for
    /// the next test file in a Lua state that test files share, when no
    /// countdown is active on it.
    public func restart(boot instant: Nanoseconds, wall: Nanoseconds) {
        boot = instant
        wallOffset = wall - instant
    }

    /// Sets the wall clock without moving boot time: a wall-clock jump.
    public func setWall(_ wall: Nanoseconds) {
        wallOffset = wall - boot
    }
}
