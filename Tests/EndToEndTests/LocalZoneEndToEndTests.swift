import Foundation
import Testing

/// Local dates on the command line are read in the machine's zone as the C
/// library knows it (`TZ`, else /etc/localtime), not through Foundation's
/// `TimeZone`, which without ICU knows only fixed offsets: the binary is run
/// here with `TZ` set to zones with daylight saving, on either side of their
/// changes, and the deadline it stored is read back in UTC.
///
/// The expected instants are facts of the tz database (checked with
/// `TZ=... date -d` and Python's zoneinfo): in a gap the time is read with the
/// offset from before the change, in an overlap the first occurrence wins.
@Suite("Local dates follow TZ, daylight saving included, in the binary without ICU")
struct LocalZoneEndToEndTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let zone: String
        let local: String
        let utc: String
        var testDescription: String { "\(zone) \(local) is \(utc)" }
    }

    static let cases: [Case] = [
        // Paris: CET +1, CEST +2 from 2027-03-28 02:00 to 2027-10-31 03:00.
        Case(zone: "Europe/Paris", local: "2027-01-15 12:00", utc: "2027-01-15T11:00:00"),
        Case(zone: "Europe/Paris", local: "2027-07-01 12:00", utc: "2027-07-01T10:00:00"),
        Case(zone: "Europe/Paris", local: "2027-03-28 01:30", utc: "2027-03-28T00:30:00"),
        Case(zone: "Europe/Paris", local: "2027-03-28 02:30", utc: "2027-03-28T01:30:00"),  // in the gap
        Case(zone: "Europe/Paris", local: "2027-03-28 03:30", utc: "2027-03-28T01:30:00"),
        Case(zone: "Europe/Paris", local: "2027-10-31 02:30", utc: "2027-10-31T00:30:00"),  // twice: the first
        Case(zone: "Europe/Paris", local: "2027-10-31 03:30", utc: "2027-10-31T02:30:00"),
        // New York: EST -5, EDT -4 from 2027-03-14 02:00 to 2027-11-07 02:00.
        Case(zone: "America/New_York", local: "2027-03-14 01:30", utc: "2027-03-14T06:30:00"),
        Case(zone: "America/New_York", local: "2027-03-14 02:30", utc: "2027-03-14T07:30:00"),  // in the gap
        Case(zone: "America/New_York", local: "2027-03-14 03:30", utc: "2027-03-14T07:30:00"),
        Case(zone: "America/New_York", local: "2027-11-07 01:30", utc: "2027-11-07T05:30:00"),  // twice: the first
        Case(zone: "America/New_York", local: "2027-11-07 02:30", utc: "2027-11-07T07:30:00"),
        // Lord Howe: +10:30, +11 from 2027-10-03 02:00 (to 02:30) until 2027-04-04 02:00 (back to 01:30).
        Case(zone: "Australia/Lord_Howe", local: "2027-07-01 12:00", utc: "2027-07-01T01:30:00"),
        Case(zone: "Australia/Lord_Howe", local: "2027-04-04 01:45", utc: "2027-04-03T14:45:00"),  // twice: the first
        Case(zone: "Australia/Lord_Howe", local: "2027-04-04 02:15", utc: "2027-04-03T15:45:00"),
        Case(zone: "Australia/Lord_Howe", local: "2027-10-03 02:15", utc: "2027-10-02T15:45:00"),  // in the gap
        Case(zone: "Australia/Lord_Howe", local: "2027-10-03 03:00", utc: "2027-10-02T16:00:00"),
    ]

    static let zoneDataPresent = FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/Europe/Paris")

    @Test("cdscript start reads a local date in the TZ zone", .enabled(if: zoneDataPresent, "no tz database at /usr/share/zoneinfo (Debian: tzdata)"),
          arguments: cases)
    func startReadsLocalDates(_ example: Case) throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-zone-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: state) }
        let zone = ["TZ": example.zone]
        let start = try BinaryRunner.run(["start", "z", example.local, "--state-dir", state.path], environment: zone)
        #expect(start.status == 0, "\(start.stderr)")
        let list = try BinaryRunner.run(["list", "--json", "--state-dir", state.path], environment: zone)
        let listed = try #require(JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]], "\(list.stdout)\(list.stderr)")
        let deadline = try #require(listed.first?["deadline"] as? String, "\(list.stdout)")
        #expect(deadline.hasPrefix(example.utc + "."), "\(example.local) in \(example.zone): stored \(deadline), expected \(example.utc)Z")
    }
}
