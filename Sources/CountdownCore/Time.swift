/// Time inside cdscript is kept in whole nanoseconds, never in floating point,
/// so that 0.3 s is exactly three tenths and tick arithmetic never drifts.
public typealias Nanoseconds = Int64

public enum Time {
    public static let nanosecondsPerSecond: Nanoseconds = 1_000_000_000
    public static let nanosecondsPerTenth: Nanoseconds = 100_000_000

    /// The largest duration accepted from a script: about 73 years (a quarter of Int64),
    /// so that deadline arithmetic can never overflow. See `CountdownRange`.
    public static let maximumDuration: Nanoseconds = CountdownRange.longestDuration

    /// Converts seconds from a script to nanoseconds, rounding to the nearest one.
    /// Returns nil for NaN, infinities and values beyond `maximumDuration`.
    public static func nanoseconds(fromSeconds seconds: Double) -> Nanoseconds? {
        guard seconds.isFinite else { return nil }
        let scaled = seconds * 1e9
        guard abs(scaled) <= Double(maximumDuration) else { return nil }
        // Rounded half away from zero, as `rounded()` does, without its call into
        // libm (every start converts two numbers): the truncation is one instruction,
        // and what it cut off is exact (from 2^53 up, a Double has no fraction).
        var whole = Nanoseconds(scaled)
        let cut = scaled - Double(whole)
        if cut >= 0.5 { whole += 1 } else if cut <= -0.5 { whole -= 1 }
        return whole
    }

    /// Converts nanoseconds to seconds for a script.
    @inline(__always)
    public static func seconds(_ ns: Nanoseconds) -> Double {
        Double(ns) / 1e9
    }
}
