import CountdownCore
import Foundation
import Testing

/// Nanoseconds since the epoch of a UTC date and time (computed by Foundation, not the parser).
private func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0) -> Nanoseconds {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let date = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second))!
    return Nanoseconds(date.timeIntervalSince1970) * Time.nanosecondsPerSecond
}

private let shanghai = TimeZone(identifier: "Asia/Shanghai")!
private let newYork = TimeZone(identifier: "America/New_York")!
private let berlin = TimeZone(identifier: "Europe/Berlin")!
/// A wall time that full dates must ignore.
private let someNow = utc(2026, 6, 15, 9, 30)

private func parse(_ text: String, now: Nanoseconds = someNow, in zone: TimeZone = shanghai) throws(DeadlineParseError) -> Nanoseconds {
    try DeadlineParser.parse(text, wallNow: now, timeZone: zone)
}

@Suite("DeadlineParser reads ISO 8601 dates and clock times into UTC instants")
struct DeadlineParserTests {
    @Test("an offset date-time is converted to UTC")
    func offsetDateTime() throws {
        #expect(utc(2026, 12, 1, 12) == 1_796_126_400 * Time.nanosecondsPerSecond)
        #expect(try parse("2026-12-01T20:00:00+08:00") == utc(2026, 12, 1, 12))
        #expect(try parse("2026-12-01T20:00:00+08:00", in: newYork) == utc(2026, 12, 1, 12), "an explicit offset ignores the zone")
    }

    @Test("Z, lower case, a space for the T, and seconds left out", arguments: [
        "2026-12-01T12:00:00Z", "2026-12-01T12:00Z", "2026-12-01t12:00:00z", "2026-12-01 12:00:00Z",
        "2026-12-01T12:00:00+00:00", "2026-12-01T12:00:00-00:00", "  2026-12-01T12:00Z  ",
    ])
    func utcForms(text: String) throws {
        #expect(try parse(text) == utc(2026, 12, 1, 12))
    }

    @Test("offsets written +0800, +08, -05:00, -0330 and +05:45", arguments: [
        ("2026-12-01T20:00:00+0800", utc(2026, 12, 1, 12)),
        ("2026-12-01T20:00+08", utc(2026, 12, 1, 12)),
        ("2026-12-01T07:00:00-05:00", utc(2026, 12, 1, 12)),
        ("2026-12-01T08:30:00-0330", utc(2026, 12, 1, 12)),
        ("2026-12-01T17:45:00+05:45", utc(2026, 12, 1, 12)),
        ("2026-12-01Z", utc(2026, 12, 1)),
    ])
    func offsets(text: String, expected: Nanoseconds) throws {
        #expect(try parse(text) == expected)
    }

    @Test("fractions of a second, with a dot or a comma, to the nanosecond")
    func fractions() throws {
        let base = utc(2026, 12, 1, 12)
        #expect(try parse("2026-12-01T12:00:00.5Z") == base + 500_000_000)
        #expect(try parse("2026-12-01T12:00:00,25Z") == base + 250_000_000)
        #expect(try parse("2026-12-01T12:00:00.123456789Z") == base + 123_456_789)
        #expect(try parse("2026-12-01T12:00:00.000000001Z") == base + 1)
        #expect(try parse("2026-12-01T12:00:00.1234567899Z") == base + 123_456_789, "digits beyond nanoseconds are dropped")
        #expect(try parse("2026-12-01T20:00:00.75+08:00") == base + 750_000_000)
        #expect(throws: DeadlineParseError.expectedDigits(field: "fraction of a second")) { try parse("2026-12-01T12:00:00.Z") }
    }

    @Test("dates before 1970 and leap days")
    func unusualDates() throws {
        #expect(try parse("1969-12-31T23:59:59.5Z") == -500_000_000)
        #expect(try parse("2024-02-29T00:00Z") == 1_709_164_800 * Time.nanosecondsPerSecond)
        #expect(try parse("2000-02-29Z") == utc(2000, 2, 29))
        #expect(throws: DeadlineParseError.outOfRange(field: "day", value: 29)) { try parse("2100-02-29Z") }
        #expect(throws: DeadlineParseError.outOfRange(field: "day", value: 29)) { try parse("2025-02-29Z") }
    }

    @Test("without an offset, a date-time is local time in the given zone")
    func localTime() throws {
        #expect(try parse("2026-12-01T20:00", in: shanghai) == utc(2026, 12, 1, 12))
        #expect(try parse("2026-12-01T20:00:00", in: shanghai) == utc(2026, 12, 1, 12))
        #expect(try parse("2026-12-01", in: shanghai) == utc(2026, 11, 30, 16), "a bare date is local midnight")
        #expect(try parse("2026-12-01T07:00", in: newYork) == utc(2026, 12, 1, 12), "EST in winter")
        #expect(try parse("2026-07-04T12:00", in: newYork) == utc(2026, 7, 4, 16), "EDT in summer")
        #expect(try parse("2026-12-01T12:00", in: TimeZone(identifier: "UTC")!) == utc(2026, 12, 1, 12))
    }

    @Test("New York around the spring-forward gap (2026-03-08, 02:00 -> 03:00)")
    func newYorkSpringForward() throws {
        #expect(try parse("2026-03-08T01:59:59", in: newYork) == utc(2026, 3, 8, 6, 59, 59))
        #expect(try parse("2026-03-08T03:00", in: newYork) == utc(2026, 3, 8, 7))
        // 02:30 does not exist; it is read with the offset from before the gap (EST), i.e. 03:30 EDT.
        #expect(try parse("2026-03-08T02:30", in: newYork) == utc(2026, 3, 8, 7, 30))
        #expect(try parse("2026-03-08T02:00", in: newYork) == utc(2026, 3, 8, 7))
    }

    @Test("New York around the fall-back overlap (2026-11-01, 02:00 -> 01:00): the first occurrence")
    func newYorkFallBack() throws {
        #expect(try parse("2026-11-01T00:59", in: newYork) == utc(2026, 11, 1, 4, 59))
        #expect(try parse("2026-11-01T01:30", in: newYork) == utc(2026, 11, 1, 5, 30), "01:30 EDT, not 01:30 EST")
        #expect(try parse("2026-11-01T02:00", in: newYork) == utc(2026, 11, 1, 7))
    }

    @Test("Berlin (east of UTC) resolves its gap and overlap the same way")
    func berlinTransitions() throws {
        // Gap on 2026-03-29, 02:00 CET -> 03:00 CEST: 02:30 is read as CET.
        #expect(try parse("2026-03-29T02:30", in: berlin) == utc(2026, 3, 29, 1, 30))
        // Overlap on 2026-10-25, 03:00 CEST -> 02:00 CET: 02:30 is the first occurrence, CEST.
        #expect(try parse("2026-10-25T02:30", in: berlin) == utc(2026, 10, 25, 0, 30))
        #expect(try parse("2026-10-25T03:30", in: berlin) == utc(2026, 10, 25, 2, 30))
    }

    @Test("a clock time is its next occurrence: later today")
    func clockTimeToday() throws {
        let now = utc(2026, 12, 1, 10) // 18:00 in Shanghai
        #expect(try parse("20:00", now: now) == utc(2026, 12, 1, 12))
        #expect(try parse("20:00:30", now: now) == utc(2026, 12, 1, 12, 0, 30))
        #expect(try parse("8:05 ", now: utc(2026, 11, 30, 20), in: shanghai) == utc(2026, 12, 1, 0, 5))
        #expect(try parse("20:00", now: utc(2026, 12, 1, 12) - 1) == utc(2026, 12, 1, 12), "one nanosecond before")
    }

    @Test("a clock time that has passed, or is exactly now, means tomorrow")
    func clockTimeTomorrow() throws {
        #expect(try parse("20:00", now: utc(2026, 12, 1, 12)) == utc(2026, 12, 2, 12), "exactly now")
        #expect(try parse("20:00", now: utc(2026, 12, 1, 12) + 1) == utc(2026, 12, 2, 12))
        #expect(try parse("20:00", now: utc(2026, 12, 1, 13)) == utc(2026, 12, 2, 12))
    }

    @Test("a clock time is read on the local day, not the UTC day")
    func clockTimeLocalDay() throws {
        let now = utc(2026, 12, 1, 17) // 01:00 on 2 December in Shanghai
        #expect(try parse("00:30", now: now) == utc(2026, 12, 2, 16, 30))
        #expect(try parse("02:00", now: now) == utc(2026, 12, 1, 18))
        #expect(try parse("00:00", now: now) == utc(2026, 12, 2, 16))
    }

    @Test("a clock time across New York's spring-forward day")
    func clockTimeAcrossDST() throws {
        // 20:00 EST on 7 March, exactly: the next 20:00 is EDT, 23 hours later.
        let now = utc(2026, 3, 8, 1)
        #expect(try parse("20:00", now: now, in: newYork) == utc(2026, 3, 9, 0))
        #expect(try parse("20:00", now: utc(2026, 3, 7, 23), in: newYork) == utc(2026, 3, 8, 1))
        // 02:30 does not exist on the 8th: read with the offset from before the gap, 03:30 EDT.
        #expect(try parse("02:30", now: utc(2026, 3, 8, 5), in: newYork) == utc(2026, 3, 8, 7, 30))
        // On fall-back night the first 01:30 comes first.
        #expect(try parse("01:30", now: utc(2026, 11, 1, 4), in: newYork) == utc(2026, 11, 1, 5, 30))
    }

    @Test("out-of-range fields are reported by name", arguments: [
        ("25:00", DeadlineParseError.outOfRange(field: "hour", value: 25)),
        ("24:00", .outOfRange(field: "hour", value: 24)),
        ("20:60", .outOfRange(field: "minute", value: 60)),
        ("20:00:60", .outOfRange(field: "second", value: 60)),
        ("2026-02-30", .outOfRange(field: "day", value: 30)),
        ("2026-04-31T10:00Z", .outOfRange(field: "day", value: 31)),
        ("2026-13-01", .outOfRange(field: "month", value: 13)),
        ("2026-00-10", .outOfRange(field: "month", value: 0)),
        ("2026-12-00", .outOfRange(field: "day", value: 0)),
        ("2026-12-01T24:00", .outOfRange(field: "hour", value: 24)),
        ("2026-12-01T20:00:00+19:00", .outOfRange(field: "offset", value: 1900)),
        ("2026-12-01T20:00:00+08:60", .outOfRange(field: "offset", value: 860)),
    ])
    func outOfRange(text: String, error: DeadlineParseError) {
        #expect(throws: error) { try parse(text) }
    }

    @Test("text that is not a date or clock time is rejected", arguments: [
        ("tomorrow-ish", DeadlineParseError.expectedDigits(field: "hour or year")),
        ("", .expectedDigits(field: "hour or year")),
        ("in 5 minutes", .expectedDigits(field: "hour or year")),
        ("123:00", .malformed("123:00")),
        ("20:00 tomorrow", .malformed("20:00 tomorrow")),
        ("2026-12-01T20", .malformed("2026-12-01T20")),
        ("2026-12-01T20:00junk", .malformed("2026-12-01T20:00junk")),
        ("2026/12/01", .malformed("2026/12/01")),
        ("20261201", .malformed("20261201")),
        ("2026-1-01", .expectedDigits(field: "month")),
        ("20:5", .expectedDigits(field: "minute")),
        ("2026-12-01T20:00+8", .expectedDigits(field: "offset hours")),
    ])
    func malformed(text: String, error: DeadlineParseError) {
        #expect(throws: error) { try parse(text) }
    }

    @Test("error descriptions show the accepted forms or name the field")
    func descriptions() {
        #expect(DeadlineParseError.malformed("x").description.contains("2026-12-01T20:00:00+08:00"))
        #expect(DeadlineParseError.malformed("x").description.contains("20:00"))
        #expect(DeadlineParseError.expectedDigits(field: "minute").description.contains("minute"))
        #expect(DeadlineParseError.outOfRange(field: "hour", value: 25).description == "hour 25 is out of range")
    }
}
