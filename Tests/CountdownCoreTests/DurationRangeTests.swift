import CountdownCore
import Testing

private let second = Time.nanosecondsPerSecond

@Suite("DurationRange reads every place's durations in one grammar and names its bounds")
struct DurationRangeTests {
    @Test("a sign may come first: - takes time off, + is the same as none", arguments: [
        ("-5m", -300 * second),
        ("+90", 90 * second),
        ("-1h30m", -5400 * second),
        (" -0.5s", -500_000_000),
        ("25m", 1500 * second),
    ] as [(String, Nanoseconds)])
    func signed(text: String, expected: Nanoseconds) throws {
        #expect(try DeadlineParser.parseSignedDuration(text) == expected)
    }

    @Test("no exponents, no double signs, no sign alone", arguments: ["1e308", "--5m", "- 5m", "-", "+", "-x", "5x", ""])
    func notDurations(text: String) {
        #expect(throws: DeadlineParseError.self) { try DeadlineParser.parseSignedDuration(text) }
    }

    @Test("the longest either way, and no more")
    func longest() throws {
        let longest = CountdownRange.longestDuration
        #expect(try DurationRange.change.read("-\(CountdownRange.longestSeconds)") == -CountdownRange.longestSeconds * second)
        #expect(throws: DurationRangeError.self) { try DurationRange.change.read("3000000000") }
        #expect(DurationRange.change.contains(-longest) && DurationRange.change.contains(longest))
        #expect(!DurationRange.change.contains(0))
    }

    @Test("each range's bounds", arguments: [
        (DurationRange.tickInterval, "0.1", true), (DurationRange.tickInterval, "0.09", false), (DurationRange.tickInterval, "0", false),
        (DurationRange.span, "0", true), (DurationRange.span, "-1", false), (DurationRange.span, "1h", true),
        (DurationRange.wait, "0", true), (DurationRange.wait, "0.05", false), (DurationRange.wait, "0.000001", false),
        (DurationRange.wait, "0.1", true), (DurationRange.wait, "3000000000", false),
        (DurationRange.change, "-30", true), (DurationRange.change, "0", false),
    ] as [(DurationRange, String, Bool)])
    func bounds(range: DurationRange, text: String, accepted: Bool) {
        #expect(((try? range.read(text)) != nil) == accepted, "\(text) in \(range.text)")
    }

    @Test("messages name the range, in seconds, with the longest as the countdowns' bound")
    func messages() {
        #expect(DurationRange.tickInterval.text == "from 0.1 s to \(CountdownRange.longestText)")
        #expect(DurationRange.wait.text == "0 or from 0.1 s to \(CountdownRange.longestText)")
        #expect(DurationRange.span.text == "from 0 s to \(CountdownRange.longestText)")
        #expect(DurationRange.change.text == "other than 0, from -\(CountdownRange.longestText) to \(CountdownRange.longestText)")
        #expect(throws: DurationRangeError(text: "1e308", range: .wait, notADuration: true)) { try DurationRange.wait.read("1e308") }
    }

    @Test("the shortest tick is the scripts' 0.1 s")
    func shortestTick() {
        #expect(CountdownRange.shortestTick == second / 10)
        #expect((try? DurationRange.tickInterval.read("0.1")) == second / 10)
        #expect(throws: DurationRangeError.self) { try DurationRange.tickInterval.read("0.09") }
    }
}
