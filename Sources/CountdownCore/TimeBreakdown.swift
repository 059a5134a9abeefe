/// A duration split into the units a countdown label shows.
///
/// Every unit is truncated, the way clocks show time: 1.96 s is 1 s and 9 tenths.
/// With ticks aligned to the deadline, tick values are exact, so truncation never
/// shows "4" for a 5 s countdown's first tick.
public struct TimeBreakdown: Equatable, Sendable {
    public let days: Int64
    /// Hours within the day, 0 to 23.
    public let hours: Int64
    /// Minutes within the hour, 0 to 59.
    public let minutes: Int64
    /// Seconds within the minute, 0 to 59.
    public let seconds: Int64
    /// Tenths within the second, 0 to 9.
    public let tenths: Int64
    public let totalHours: Int64
    public let totalMinutes: Int64
    public let totalSeconds: Int64

    public init(_ duration: Nanoseconds) {
        let ns = max(0, duration)
        let secs = ns / Time.nanosecondsPerSecond
        tenths = (ns / Time.nanosecondsPerTenth) % 10
        totalSeconds = secs
        totalMinutes = secs / 60
        totalHours = secs / 3600
        seconds = secs % 60
        minutes = (secs / 60) % 60
        hours = (secs / 3600) % 24
        days = secs / 86_400
    }
}
