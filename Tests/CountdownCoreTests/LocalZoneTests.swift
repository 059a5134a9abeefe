import CountdownCore
import Foundation
import Testing

/// SystemLocalZone is read across daylight-saving changes end to end (the
/// binary under TZ=Europe/Paris, America/New_York and Australia/Lord_Howe, in
/// EndToEndTests' LocalZoneEndToEndTests): changing TZ inside this process
/// would change it for every test running beside these.
@Suite("The machine's local zone through the C library")
struct LocalZoneTests {
    @Test("it agrees with Foundation's current zone at every hour of two years")
    func agreesWithFoundation() {
        let zone = SystemLocalZone()
        let foundation = TimeZone.current
        let start: Int64 = 1_798_761_600  // 2027-01-01T00:00:00Z
        for hour in stride(from: Int64(0), to: 2 * 366 * 24, by: 1) {
            let instant = start + hour * 3600
            let expected = Int64(foundation.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant))))
            if zone.secondsFromUTC(at: instant) != expected {
                Issue.record("at \(instant): \(zone.secondsFromUTC(at: instant)) s, Foundation \(expected) s (\(foundation.identifier))")
                return
            }
        }
    }

    @Test("Foundation's zones are LocalZones too: a fixed offset, and a named zone's offset at the instant asked")
    func foundationZones() throws {
        #expect(TimeZone(secondsFromGMT: 5 * 3600 + 1800)!.secondsFromUTC(at: 0) == 19_800)
        let paris = try #require(TimeZone(identifier: "Europe/Paris"))
        #expect(paris.secondsFromUTC(at: 1_800_000_000) == 3600)   // 2027-01-15, winter
        #expect(paris.secondsFromUTC(at: 1_814_400_000) == 7200)   // 2027-07-01, summer
    }

    @Test("a deadline is read in the zone passed, the machine's by default in the product")
    func deadlineInZone() throws {
        let offset = TimeZone(secondsFromGMT: -3 * 3600)!
        let instant = try DeadlineParser.parse("2027-01-15T12:00", wallNow: 0, timeZone: offset)
        #expect(instant == 1_800_025_200 * 1_000_000_000)  // 2027-01-15T15:00:00Z
    }
}
