import CountdownCore
import Foundation
import Testing

private let second = Time.nanosecondsPerSecond

@Suite("DeadlineParser reads durations: seconds, or numbers with units d h m s")
struct DurationParserTests {
    @Test("the forms a timer is given", arguments: [
        ("90", 90 * second),
        ("1.5", 1_500_000_000),
        ("25m", 25 * 60 * second),
        ("1h30m", 90 * 60 * second),
        ("2d4h", (2 * 86_400 + 4 * 3600) * second),
        ("1m30.5s", 90_500_000_000),
        ("1h 30m", 90 * 60 * second),
        (" 45s ", 45 * second),
        ("1.5h", 90 * 60 * second),
        ("0.1s", 100_000_000),
        ("1d2h3m4.000000001s", (86_400 + 7200 + 180 + 4) * second + 1),
        ("0", 0),
    ] as [(String, Nanoseconds)])
    func forms(text: String, expected: Nanoseconds) throws {
        #expect(try DeadlineParser.parseDuration(text) == expected)
    }

    @Test("fractions are exact, not rounded through a Double")
    func exactFractions() throws {
        #expect(try DeadlineParser.parseDuration("0.3") == 300_000_000)
        #expect(try DeadlineParser.parseDuration("0.1m") == 6 * second)
        #expect(try DeadlineParser.parseDuration("1.123456789123s") == second + 123_456_789)
    }

    @Test("text that is not a duration throws malformedDuration", arguments: [
        "", " ", "m", "1x", "5m30", "30s5m", "1m1m", "1h2d", "1..5s", ".", "s5", "1 2", "-5", "+5", "1e3", "１m",
    ])
    func malformed(text: String) {
        #expect(throws: DeadlineParseError.malformedDuration(text)) { try DeadlineParser.parseDuration(text) }
    }

    @Test("a duration beyond a countdown's range throws durationTooLong", arguments: [
        "99999999999d", "999999999999999999", "30000d", "2562047h",
    ])
    func tooLong(text: String) {
        #expect(throws: DeadlineParseError.durationTooLong(text)) { try DeadlineParser.parseDuration(text) }
    }

    @Test("the message names the text and shows the forms")
    func message() {
        let text = DeadlineParseError.malformedDuration("5 minutes").description
        #expect(text.contains("\"5 minutes\"") && text.contains("25m") && text.contains("1h30m"))
    }

    @Test("a timer spec with ':' or '-' is a deadline, otherwise a duration")
    func timerSpec() throws {
        let now: Nanoseconds = 1_798_761_600 * second  // 2027-01-01T00:00:00Z
        #expect(try DeadlineParser.parseTimerSpec("25m", wallNow: now, timeZone: TimeZone.gmt) == .duration(1500 * second))
        #expect(try DeadlineParser.parseTimerSpec("20:00", wallNow: now, timeZone: TimeZone.gmt) == .deadline(now + 20 * 3600 * second))
        #expect(try DeadlineParser.parseTimerSpec("2027-01-02T00:00:00Z", wallNow: now, timeZone: TimeZone.gmt) == .deadline(now + 86_400 * second))
        #expect(throws: DeadlineParseError.self) { try DeadlineParser.parseTimerSpec("-5", wallNow: now, timeZone: TimeZone.gmt) }
        #expect(throws: DeadlineParseError.malformedDuration("soon")) { try DeadlineParser.parseTimerSpec("soon", wallNow: now, timeZone: TimeZone.gmt) }
    }
}
