/// Instants written as ISO 8601 in UTC to the millisecond, `2026-11-27T04:55:17.123Z`,
/// without a date formatter: `cdscript list` writes one per countdown, and
/// Foundation's `ISO8601DateFormatter` (made anew per row, as the listing once did)
/// took most of the time of listing 100,000.
///
/// The text is the one `ISO8601DateFormatter` with `.withInternetDateTime` and
/// `.withFractionalSeconds` wrote for `Date(timeIntervalSince1970: Double(ns) / 1e9)`,
/// byte for byte (a test compares the two): the milliseconds come from the same
/// floating-point steps (seconds as a Double, through Foundation's reference
/// date, times 1000, rounded to the nearest), so an instant near the middle of
/// a millisecond is written as that formatter wrote it.
public enum UTCTimestamp {
    /// Seconds from 1970 to Foundation's reference date, 2001-01-01.
    private static let referenceDateOffset = 978_307_200.0

    /// `ns` nanoseconds after the Unix epoch (negative: before), for the years
    /// 0001 through 9999.
    public static func iso8601(_ ns: Nanoseconds) -> String {
        // Foundation's path: a Date holds seconds since 2001 as a Double; the
        // formatter takes seconds since 1970 back from it and rounds to the
        // nearest millisecond, a half up (towards the future).
        let sinceReference = Double(ns) / 1e9 - referenceDateOffset
        let scaled = (sinceReference + referenceDateOffset) * 1000.0
        var whole = scaled.rounded(.down)
        if scaled - whole >= 0.5 { whole += 1 }
        let milliseconds = Int64(whole)
        let millisecondsPerDay: Int64 = 86_400_000
        var days = milliseconds / millisecondsPerDay
        var inDay = milliseconds % millisecondsPerDay
        if inDay < 0 {
            inDay += millisecondsPerDay
            days -= 1
        }
        let (year, month, day) = civil(daysSinceEpoch: days)
        let second = inDay / 1000
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        func digits(_ value: Int64, _ count: Int) {
            var divisor: Int64 = 1
            for _ in 1..<count { divisor *= 10 }
            var v = value
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(v / divisor))
                v %= divisor
                divisor /= 10
            }
        }
        digits(year, 4)
        bytes.append(UInt8(ascii: "-"))
        digits(month, 2)
        bytes.append(UInt8(ascii: "-"))
        digits(day, 2)
        bytes.append(UInt8(ascii: "T"))
        digits(second / 3600, 2)
        bytes.append(UInt8(ascii: ":"))
        digits(second / 60 % 60, 2)
        bytes.append(UInt8(ascii: ":"))
        digits(second % 60, 2)
        bytes.append(UInt8(ascii: "."))
        digits(inDay % 1000, 3)
        bytes.append(UInt8(ascii: "Z"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The proleptic Gregorian date of a day counted from 1970-01-01 (Howard
    /// Hinnant's `civil_from_days`).
    static func civil(daysSinceEpoch: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = daysSinceEpoch + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
