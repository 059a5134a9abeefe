import FoundationEssentials

/// What a timer's SPEC names: a length of time, or an instant on the wall clock.
public enum TimerSpec: Equatable, Sendable {
    /// A duration in nanoseconds, measured on the boot clock from the start.
    case duration(Nanoseconds)
    /// A deadline in nanoseconds since the epoch (UTC).
    case deadline(Nanoseconds)
}

extension DeadlineParser {
    /// Parses a duration into nanoseconds (>= 0).
    ///
    /// Accepted forms: a number of seconds (`"90"`, `"1.5"`), or numbers each followed by
    /// a unit, largest unit first, each unit at most once: `d`, `h`, `m`, `s`
    /// (`"25m"`, `"1h30m"`, `"2d4h"`, `"1m30.5s"`, `"1h 30m"`). Any part may have a
    /// fraction (`"1.5h"`); fractions are exact to the nanosecond, never rounded
    /// through a Double.
    public static func parseDuration(_ text: String) throws(DeadlineParseError) -> Nanoseconds {
        let bytes = Array(text.utf8)
        var index = 0
        func skipSpaces() { while index < bytes.count, bytes[index] == UInt8(ascii: " ") { index += 1 } }
        func isDigit(_ c: UInt8) -> Bool { c >= 48 && c <= 57 }
        let units: [(UInt8, Int64)] = [(UInt8(ascii: "d"), 86_400), (UInt8(ascii: "h"), 3600), (UInt8(ascii: "m"), 60), (UInt8(ascii: "s"), 1)]
        // Anything past this cannot be a countdown's length (about 73 years).
        let limit = Time.maximumDuration
        var total: Nanoseconds = 0
        var nextUnit = 0
        var parts = 0
        skipSpaces()
        while index < bytes.count {
            // A number: digits, optionally a fraction.
            var whole: Int64 = 0
            var wholeDigits = 0
            while index < bytes.count, isDigit(bytes[index]) {
                // More digits than any whole number of seconds in the limit can have.
                guard wholeDigits < 12 else { throw .durationTooLong(text) }
                whole = whole * 10 + Int64(bytes[index] - 48)
                wholeDigits += 1
                index += 1
            }
            var fraction: Nanoseconds = 0  // of one unit, in billionths
            var fractionDigits = 0
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                var scale: Nanoseconds = 100_000_000
                while index < bytes.count, isDigit(bytes[index]) {
                    fraction += Nanoseconds(bytes[index] - 48) * scale
                    scale /= 10
                    fractionDigits += 1
                    index += 1
                }
            }
            guard wholeDigits + fractionDigits > 0 else { throw .malformedDuration(text) }
            // The unit; a bare number is seconds and must stand alone.
            let unitSeconds: Int64
            if index < bytes.count, let found = units.firstIndex(where: { $0.0 == bytes[index] }) {
                guard found >= nextUnit else { throw .malformedDuration(text) }
                unitSeconds = units[found].1
                nextUnit = found + 1
                index += 1
            } else {
                guard parts == 0 else { throw .malformedDuration(text) }
                unitSeconds = 1
                nextUnit = units.count
            }
            parts += 1
            // whole < 10^12 and unitSeconds <= 86400: well inside Int64 before scaling to ns.
            let (wholeSeconds, overflow1) = (whole * unitSeconds).multipliedReportingOverflow(by: Time.nanosecondsPerSecond)
            let (sum, overflow2) = total.addingReportingOverflow(wholeSeconds)
            guard !overflow1, !overflow2 else { throw .durationTooLong(text) }
            // fraction < 1e9 and unitSeconds <= 86400: the product fits in Int64.
            let (withFraction, overflow3) = sum.addingReportingOverflow(fraction * unitSeconds)
            guard !overflow3, withFraction <= limit else { throw .durationTooLong(text) }
            total = withFraction
            skipSpaces()
        }
        guard parts > 0 else { throw .malformedDuration(text) }
        return total
    }

    /// Parses a duration with an optional sign, in the grammar of `parseDuration`:
    /// `"-5m"` is five minutes taken off, `"+90"` and `"90"` the same. The only
    /// grammar for durations: every place that takes one reads it through this.
    public static func parseSignedDuration(_ text: String) throws(DeadlineParseError) -> Nanoseconds {
        let trimmed = text.drop { $0 == " " }
        guard let sign = trimmed.first, sign == "-" || sign == "+" else { return try parseDuration(text) }
        let body = trimmed.dropFirst()
        // "--5m", "- 5m": one sign, right before the number.
        guard let next = body.first, next.isASCII, next.isNumber || next == "." else { throw .malformedDuration(text) }
        let magnitude: Nanoseconds
        do {
            magnitude = try parseDuration(String(body))
        } catch .durationTooLong {
            throw .durationTooLong(text)
        } catch {
            throw .malformedDuration(text)
        }
        return sign == "-" ? -magnitude : magnitude
    }

    /// Reads a timer's SPEC: a duration (`"90"`, `"25m"`, `"1h30m"`) or a deadline
    /// (`"20:00"`, `"2026-12-01T20:00:00+08:00"`). Deadlines always hold `:` or `-`,
    /// durations never do: that is how the two are told apart.
    public static func parseTimerSpec(_ text: String, wallNow: Nanoseconds, timeZone: some LocalZone) throws(DeadlineParseError) -> TimerSpec {
        if isDeadlineText(text) {
            return .deadline(try parse(text, wallNow: wallNow, timeZone: timeZone))
        }
        return .duration(try parseDuration(text))
    }

    /// True when `text` is to be read as a deadline rather than a duration.
    public static func isDeadlineText(_ text: String) -> Bool {
        text.utf8.contains { $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "-") }
    }
}
