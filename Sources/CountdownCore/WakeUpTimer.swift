/// A one-shot timer a change feed arms to be looked at again later (a re-check
/// after a burst of writes, an attempt to reconnect). Feeds do not make their own:
/// the run loop hands them out (`MainLoop.makeTimer()`), so the loop owns every
/// timer of the process and the store adapters keep to their store.
///
/// The timer is a descriptor the feed lists among its `descriptors`: the loop's
/// one `poll` wakes for it like for any other change, and a disarmed timer costs
/// no wake-up at all.
public protocol WakeUpTimer: AnyObject {
    /// Readable from the moment the timer fires until `takeExpiry()`.
    var descriptor: Int32 { get }
    /// Fires once, `nanoseconds` from now; replaces any earlier arming.
    func arm(afterNanoseconds nanoseconds: Int)
    /// Cancels a pending expiry.
    func disarm()
    /// True when the timer fired since the last call (which consumes it). Never blocks.
    func takeExpiry() -> Bool
}

/// Where change feeds get their timers: the run loop.
public protocol WakeUpTimerSource: AnyObject {
    func makeTimer() throws -> WakeUpTimer
}
