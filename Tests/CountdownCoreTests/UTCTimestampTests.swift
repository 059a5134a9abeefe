import CountdownCore
import Foundation
import Testing

@Suite("UTC timestamps are written as Foundation's ISO 8601 formatter wrote them, without it")
struct UTCTimestampTests {
    /// What `cdscript list` wrote before (with a formatter made for each row; one
    /// formatter with the same settings writes the same).
    nonisolated(unsafe) static let formatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter
    }()

    static func foundation(_ ns: Nanoseconds) -> String {
        formatter.string(from: Date(timeIntervalSince1970: Double(ns) / 1e9))
    }

    @Test("the epoch, leap days, ends of years, the range's bounds and instants before 1970")
    func knownInstants() {
        #expect(UTCTimestamp.iso8601(0) == "1970-01-01T00:00:00.000Z")
        #expect(UTCTimestamp.iso8601(1_582_934_400_000_000_000 + 123_000_000) == "2020-02-29T00:00:00.123Z")
        #expect(UTCTimestamp.iso8601(-1) == Self.foundation(-1))
        #expect(UTCTimestamp.iso8601(CountdownRange.latestInstant) == Self.foundation(CountdownRange.latestInstant))
        #expect(UTCTimestamp.iso8601(CountdownRange.latestInstant).hasPrefix(String(CountdownRange.latestInstantText.dropLast())))
        #expect(UTCTimestamp.iso8601(CountdownRange.earliestInstant) == Self.foundation(CountdownRange.earliestInstant))
    }

    @Test("the same text as the formatter across the whole range a countdown can have, and a nanosecond either side of milliseconds")
    func sameAsFoundation() {
        var generator = SystemRandomNumberGenerator()
        var instants: [Nanoseconds] = []
        for _ in 0..<10_000 {
            instants.append(Nanoseconds.random(in: CountdownRange.instants, using: &generator))
        }
        // Around now, where real deadlines are, and on millisecond boundaries,
        // where the formatter's Double arithmetic decides the last digit.
        let now = Nanoseconds(Date().timeIntervalSince1970 * 1e9)
        for _ in 0..<5_000 {
            let ms = (now + Nanoseconds.random(in: -3_000_000_000_000_000...3_000_000_000_000_000, using: &generator)) / 1_000_000 * 1_000_000
            instants += [ms - 1, ms, ms + 1, ms + 999_999]
        }
        for day in stride(from: Int64(-60_000), through: 60_000, by: 97) {
            instants.append(day * 86_400_000_000_000)
            instants.append(day * 86_400_000_000_000 - 1)
        }
        var mismatches: [String] = []
        for ns in instants where UTCTimestamp.iso8601(ns) != Self.foundation(ns) {
            mismatches.append("\(ns): \(UTCTimestamp.iso8601(ns)) vs \(Self.foundation(ns))")
        }
        let count = mismatches.count
        #expect(count == 0, "\(count) of \(instants.count): \(mismatches.prefix(5))")
    }
}
