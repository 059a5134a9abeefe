#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FoundationEssentials

/// What local time means where a deadline is read: the offset from UTC in force
/// at each instant (daylight saving changes it twice a year in many zones).
///
/// `DeadlineParser` needs nothing else of a time zone. The machine's zone is
/// `SystemLocalZone`; tests pass fixed offsets, or Foundation's named zones.
public protocol LocalZone: Sendable {
    /// Seconds to add to a UTC time to get the local time at the instant
    /// `utcSecond` (seconds since 1970-01-01 UTC), e.g. 3600 for Paris in winter.
    func secondsFromUTC(at utcSecond: Int64) -> Int64
}

/// Foundation's time zone as a `LocalZone`. In a binary without Foundation's
/// internationalization (cdscript's), only fixed offsets (`TimeZone(secondsFromGMT:)`)
/// are real: there, `TimeZone.current` and named zones silently read as GMT, so
/// the product uses `SystemLocalZone` for the machine's zone; tests, which link
/// all of Foundation, pass named zones through this.
extension TimeZone: LocalZone {
    public func secondsFromUTC(at utcSecond: Int64) -> Int64 {
        Int64(secondsFromGMT(for: Date(timeIntervalSince1970: Double(utcSecond))))
    }
}

/// The machine's local zone as the C library reads it: `TZ` when set (a name
/// such as `Europe/Paris`, or a POSIX rule), else `/etc/localtime`. The offset
/// comes from `localtime_r`'s `tm_gmtoff` for the very instant asked, so it is
/// right on either side of a daylight-saving change, in zones whose offsets are
/// not whole hours (Lord Howe's 30-minute change), and for past rules.
///
/// This takes the place of `TimeZone.current`, which needs ICU's 34 MB of data.
/// The zone is read once per process, at the first offset asked (`tzset`);
/// `localtime_r` is thread-safe.
public struct SystemLocalZone: LocalZone {
    /// Free: the zone is read at the first offset asked, not here (most runs never ask).
    public init() {}

    /// `tzset` once: `localtime_r`, unlike `localtime`, need not call it.
    private static let readOnce: Void = tzset()

    public func secondsFromUTC(at utcSecond: Int64) -> Int64 {
        _ = Self.readOnce
        var time = time_t(utcSecond)
        var parts = tm()
        guard localtime_r(&time, &parts) != nil else { return 0 }
        return Int64(parts.tm_gmtoff)
    }
}
