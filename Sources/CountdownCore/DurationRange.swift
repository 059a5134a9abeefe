/// The durations one place accepts (`append`, `--every`, `--critical`,
/// `--quit-after`, the Lua API's `every` and `h:append`), read in the one
/// grammar of `DeadlineParser.parseDuration` with an optional sign, and checked
/// against bounds that messages name.
public struct DurationRange: Equatable, Sendable {
    /// The lowest value accepted (negative when time may be taken off).
    public let lowest: Nanoseconds
    /// The highest value accepted.
    public let highest: Nanoseconds
    /// 0 is accepted besides `lowest...highest` (`--quit-after 0`: at once).
    public let zeroAllowed: Bool
    /// 0 is refused though inside `lowest...highest` (an append of nothing).
    public let zeroRefused: Bool

    public init(lowest: Nanoseconds, highest: Nanoseconds = CountdownRange.longestDuration,
                zeroAllowed: Bool = false, zeroRefused: Bool = false) {
        self.lowest = lowest
        self.highest = highest
        self.zeroAllowed = zeroAllowed
        self.zeroRefused = zeroRefused
    }

    /// A countdown's tick interval: 0.1 s through the longest duration.
    public static let tickInterval = DurationRange(lowest: CountdownRange.shortestTick)
    /// A span of time such as `--critical`'s: 0 through the longest duration.
    public static let span = DurationRange(lowest: 0)
    /// Time added or, negative, taken off: anything but 0 up to the longest duration either way.
    public static let change = DurationRange(lowest: -CountdownRange.longestDuration, zeroRefused: true)
    /// A countdown run only to wait (`--quit-after`): 0 (not at all), or as long as a tick interval and longer.
    public static let wait = DurationRange(lowest: CountdownRange.shortestTick, zeroAllowed: true)

    /// True when `value` is accepted.
    public func contains(_ value: Nanoseconds) -> Bool {
        if value == 0 { return zeroAllowed || (lowest <= 0 && !zeroRefused) }
        return lowest <= value && value <= highest
    }

    /// How messages name the range: "from 0.1 s to 2305843009 seconds (about 73 years)".
    public var text: String {
        let range = "from \(Self.seconds(lowest)) to \(Self.seconds(highest))"
        if zeroAllowed { return "0 or " + range }
        if zeroRefused { return "other than 0, " + range }
        return range
    }

    /// `text` read as a duration (`90`, `1.5`, `25m`, `1h30m`, `-5m`, `+30s`) and
    /// checked against the range.
    public func read(_ text: String) throws(DurationRangeError) -> Nanoseconds {
        let value: Nanoseconds
        do {
            value = try DeadlineParser.parseSignedDuration(text)
        } catch {
            throw DurationRangeError(text: text, range: self, notADuration: true)
        }
        return try check(value, shown: text)
    }

    /// `value` if the range holds it; `shown` is how the message quotes it.
    public func check(_ value: Nanoseconds, shown: String) throws(DurationRangeError) -> Nanoseconds {
        guard contains(value) else { throw DurationRangeError(text: shown, range: self, notADuration: false) }
        return value
    }

    /// Seconds as messages write them: 0.1 s, 30 s, and the longest as
    /// `CountdownRange.longestText`: 2305843009 seconds (about 73 years).
    static func seconds(_ ns: Nanoseconds) -> String {
        if abs(ns) == CountdownRange.longestDuration { return (ns < 0 ? "-" : "") + CountdownRange.longestText }
        let whole = ns / Time.nanosecondsPerSecond
        var fraction = abs(ns % Time.nanosecondsPerSecond)
        guard fraction != 0 else { return "\(whole) s" }
        var digits = 9
        while fraction % 10 == 0 { fraction /= 10; digits -= 1 }
        let padded = String(repeating: "0", count: digits - String(fraction).count) + String(fraction)
        return "\(ns < 0 && whole == 0 ? "-" : "")\(whole).\(padded) s"
    }
}

/// A duration a place does not accept: not in the grammar, or out of its range.
public struct DurationRangeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The value as given.
    public let text: String
    public let range: DurationRange
    /// True when `text` is not a duration at all (`1e308`, `5x`).
    public let notADuration: Bool

    public init(text: String, range: DurationRange, notADuration: Bool) {
        self.text = text
        self.range = range
        self.notADuration = notADuration
    }

    /// "must be a duration from 0.1 s to ... (90, 1.5, 25m, 1h30m), got \"1e308\"".
    public var description: String {
        let forms = range.lowest < 0 ? "90, 1.5, 25m, 1h30m, -5m" : "90, 1.5, 25m, 1h30m"
        return "must be a duration \(range.text) (such as \(forms)), got \"\(Self.shown(text))\""
    }

    /// `text` as messages quote it: cut after 60 characters, so that a megabyte
    /// given where a duration goes is not a megabyte of message.
    public static func shown(_ text: String) -> String {
        text.count > 60 ? String(text.prefix(60)) + "..." : text
    }
}
