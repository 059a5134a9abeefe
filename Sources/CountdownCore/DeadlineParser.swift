import FoundationEssentials

/// Parses the `at` deadline of a countdown into a UTC instant.
///
/// Accepted forms:
/// - `"2026-12-01T20:00:00+08:00"`, `"2026-12-01T12:00Z"`, fractions of a second,
///   offsets as `+08:00`, `+0800` or `+08`; a space may stand for the `T`.
/// - The same without an offset (`"2026-12-01T20:00"`, `"2026-12-01"`): local time.
/// - A clock time `"20:00"` or `"20:00:30"`: its next occurrence in local time.
public enum DeadlineParser {
    /// - Parameters:
    ///   - wallNow: the current wall time, nanoseconds since the epoch (UTC).
    ///   - timeZone: the zone that local times are read in.
    /// - Returns: the deadline in nanoseconds since the epoch (UTC).
    public static func parse(_ text: String, wallNow: Nanoseconds, timeZone: some LocalZone) throws(DeadlineParseError) -> Nanoseconds {
        var scanner = Scanner(Array(text.utf8))
        scanner.skipSpaces()
        let first = try scanner.number(minDigits: 1, maxDigits: 4, field: "hour or year")
        if scanner.peek == UInt8(ascii: ":") {
            // A clock time: HH:MM[:SS]
            guard first.digits <= 2 else { throw .malformed(text) }
            let hour = first.value
            scanner.advance()
            let minute = try scanner.number(minDigits: 2, maxDigits: 2, field: "minute").value
            var second: Int64 = 0
            if scanner.peek == UInt8(ascii: ":") {
                scanner.advance()
                second = try scanner.number(minDigits: 2, maxDigits: 2, field: "second").value
            }
            scanner.skipSpaces()
            guard scanner.atEnd else { throw .malformed(text) }
            try check(hour: hour, minute: minute, second: second)
            return nextOccurrence(secondOfDay: hour * 3600 + minute * 60 + second, after: wallNow, in: timeZone)
        }
        guard first.digits == 4 else { throw .malformed(text) }
        let year = first.value
        try scanner.expect("-", in: text)
        let month = try scanner.number(minDigits: 2, maxDigits: 2, field: "month").value
        try scanner.expect("-", in: text)
        let day = try scanner.number(minDigits: 2, maxDigits: 2, field: "day").value
        // Nanoseconds since 1970 in an Int64 reach only from 1677 to 2262.
        guard (1900...2200).contains(year) else { throw .outOfRange(field: "year", value: year) }
        guard (1...12).contains(month) else { throw .outOfRange(field: "month", value: month) }
        guard (1...daysIn(month: month, year: year)).contains(day) else {
            throw .outOfRange(field: "day", value: day)
        }
        var hour: Int64 = 0, minute: Int64 = 0, second: Int64 = 0, fraction: Nanoseconds = 0
        if let c = scanner.peek, c == UInt8(ascii: "T") || c == UInt8(ascii: "t") || c == UInt8(ascii: " ") {
            scanner.advance()
            hour = try scanner.number(minDigits: 2, maxDigits: 2, field: "hour").value
            try scanner.expect(":", in: text)
            minute = try scanner.number(minDigits: 2, maxDigits: 2, field: "minute").value
            if scanner.peek == UInt8(ascii: ":") {
                scanner.advance()
                second = try scanner.number(minDigits: 2, maxDigits: 2, field: "second").value
                if let c = scanner.peek, c == UInt8(ascii: ".") || c == UInt8(ascii: ",") {
                    scanner.advance()
                    fraction = try scanner.fraction()
                }
            }
            try check(hour: hour, minute: minute, second: second)
        }
        let localSeconds = daysFromCivil(year: year, month: month, day: day) * 86_400
            + hour * 3600 + minute * 60 + second
        let offset = try scanner.offset(in: text)
        scanner.skipSpaces()
        guard scanner.atEnd else { throw .malformed(text) }
        let utcSeconds: Int64
        if let offset {
            utcSeconds = localSeconds - offset
        } else {
            utcSeconds = utcFromLocal(localSeconds, in: timeZone)
        }
        return utcSeconds * Time.nanosecondsPerSecond + fraction
    }

    private static func check(hour: Int64, minute: Int64, second: Int64) throws(DeadlineParseError) {
        guard (0...23).contains(hour) else { throw .outOfRange(field: "hour", value: hour) }
        guard (0...59).contains(minute) else { throw .outOfRange(field: "minute", value: minute) }
        guard (0...59).contains(second) else { throw .outOfRange(field: "second", value: second) }
    }

    static func nextOccurrence(secondOfDay: Int64, after wallNow: Nanoseconds, in zone: some LocalZone) -> Nanoseconds {
        let nowSeconds = floorDiv(wallNow, Time.nanosecondsPerSecond)
        let localNow = nowSeconds + zone.secondsFromUTC(at: nowSeconds)
        let localDay = floorDiv(localNow, 86_400)
        for dayOffset in 0...2 as ClosedRange<Int64> {
            let candidate = utcFromLocal((localDay + dayOffset) * 86_400 + secondOfDay, in: zone)
            if candidate * Time.nanosecondsPerSecond > wallNow {
                return candidate * Time.nanosecondsPerSecond
            }
        }
        return (nowSeconds + 86_400) * Time.nanosecondsPerSecond
    }

    /// Local wall seconds to UTC seconds. In a daylight-saving gap the time is read
    /// with the offset from before the gap, as most clocks do; in an overlap the
    /// first occurrence wins.
    static func utcFromLocal(_ local: Int64, in zone: some LocalZone) -> Int64 {
        func offset(at utc: Int64) -> Int64 { zone.secondsFromUTC(at: utc) }
        // The offsets in force a day either side cover any single transition near `local`.
        let before = offset(at: local - 86_400)
        let after = offset(at: local + 86_400)
        // A reading is valid when the zone really has that offset at the instant it gives.
        let valid = [local - before, local - after].filter { local - offset(at: $0) == $0 }
        return valid.min() ?? local - before
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
    static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = floorDiv(y, 400)
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { index >= bytes.count }
        var peek: UInt8? { index < bytes.count ? bytes[index] : nil }
        mutating func advance() { index += 1 }
        mutating func skipSpaces() { while peek == UInt8(ascii: " ") { index += 1 } }

        mutating func expect(_ char: Unicode.Scalar, in text: String) throws(DeadlineParseError) {
            guard peek == UInt8(char.value) else { throw .malformed(text) }
            index += 1
        }

        mutating func number(minDigits: Int, maxDigits: Int, field: String) throws(DeadlineParseError) -> (value: Int64, digits: Int) {
            var value: Int64 = 0
            var digits = 0
            while digits < maxDigits, let c = peek, c >= 48, c <= 57 {
                value = value * 10 + Int64(c - 48)
                digits += 1
                index += 1
            }
            guard digits >= minDigits else { throw .expectedDigits(field: field) }
            return (value, digits)
        }

        mutating func fraction() throws(DeadlineParseError) -> Nanoseconds {
            var ns: Nanoseconds = 0
            var scale: Nanoseconds = 100_000_000
            var digits = 0
            while let c = peek, c >= 48, c <= 57 {
                ns += Nanoseconds(c - 48) * scale
                scale /= 10
                digits += 1
                index += 1
            }
            guard digits > 0 else { throw .expectedDigits(field: "fraction of a second") }
            return ns
        }

        /// The UTC offset in seconds, or nil when the text gives none (local time).
        mutating func offset(in text: String) throws(DeadlineParseError) -> Int64? {
            guard let c = peek else { return nil }
            if c == UInt8(ascii: "Z") || c == UInt8(ascii: "z") { index += 1; return 0 }
            guard c == UInt8(ascii: "+") || c == UInt8(ascii: "-") else { return nil }
            index += 1
            let hours = try number(minDigits: 2, maxDigits: 2, field: "offset hours").value
            var minutes: Int64 = 0
            if peek == UInt8(ascii: ":") { index += 1 }
            if let d = peek, d >= 48, d <= 57 {
                minutes = try number(minDigits: 2, maxDigits: 2, field: "offset minutes").value
            }
            guard hours <= 18, minutes <= 59 else { throw .outOfRange(field: "offset", value: hours * 100 + minutes) }
            let seconds = hours * 3600 + minutes * 60
            return c == UInt8(ascii: "-") ? -seconds : seconds
        }
    }
}

public enum DeadlineParseError: Error, Equatable, CustomStringConvertible {
    case malformed(String)
    case expectedDigits(field: String)
    case outOfRange(field: String, value: Int64)
    /// Not a duration such as `90`, `25m`, `1h30m` or `1m30.5s`.
    case malformedDuration(String)
    /// A duration longer than a countdown can be (about 73 years).
    case durationTooLong(String)

    public var description: String {
        let forms = "expected an ISO 8601 date-time such as \"2026-12-01T20:00:00+08:00\" or a clock time such as \"20:00\""
        switch self {
        case .malformed: return forms
        case .expectedDigits(let field): return "\(forms); the \(field) is missing or has too few digits"
        case .outOfRange(let field, let value): return "\(field) \(value) is out of range"
        case .malformedDuration(let text):
            return "\"\(text)\" is not a duration: expected seconds such as \"90\" or numbers with units d, h, m, s, largest first, such as \"25m\", \"1h30m\", \"2d4h\" or \"1m30.5s\""
        case .durationTooLong(let text): return "\"\(text)\" is longer than a countdown can be (\(CountdownRange.longestInYears))"
        }
    }
}
