import CountdownCore
import Foundation
import GRDB
import RedisTestServer
import Testing
import TerminalView

extension StoreFaults {
    /// `cdscript list` writes its output as it reads the store; these compare it,
    /// byte for byte, with the listing built whole as it was before (the code kept
    /// here as the reference: `JSONEncoder`, `ISO8601DateFormatter` per row, a
    /// padded table).
    @Suite("cdscript list streams the same bytes the listing built whole wrote", .serialized)
    final class ListOutputTests {
        let server: RedisServer

        init() throws { server = try RedisServer() }

        /// Records whose listing does not depend on the moment it is made: paused
        /// (no deadline shown) and finished (the stored deadline), across the range
        /// of every field, with ids that need escaping or take two columns a character.
        static func records(pausedOnly: Bool = false) -> [StoredCountdown] {
            let ids = ["plain", "a/b", "quote\"back\\slash", "ctl\u{01}\u{08}\u{0C}\u{1F}\t\r\nend", "del\u{7F}c1\u{9B}ls\u{2028}bidi\u{202E}",
                       "名前", "限时抢购🍅", "café", "e\u{301}", String(repeating: "long", count: 30), "z", "Z", "0"]
            let durations: [Nanoseconds] = [0, 1, 999_999, 1_000_000, 100_000_000, 999_999_999, 1_500_000_000, 59_999_999_999,
                                            86_399_999_999_999, 86_400_000_000_000, 90_061_500_000_000, 123_456_789_012_345,
                                            CountdownRange.longestDuration]
            let instants: [Nanoseconds] = [CountdownRange.earliestInstant, -86_400_000_000_001, -1, 0, 1, 999_999, 1_000_000,
                                           1_700_000_000_123_999_999, 1_700_000_000_124_000_000, 1_799_999_999_999_999_999,
                                           4_102_444_800_000_000_000, CountdownRange.latestInstant]
            // Titles that need escaping (a '|' and '%' that the Redis record escapes too), and end actions' names.
            let titles = ["Tea", "a|b%7C%", "<script>alert(1)</script>", "\"quoted\" \\ back", "名前 🍅", "bidi\u{202E}rtl", ""]
            let actionNames = ["notify", "bell", "log.x", "A-1_b"]
            var records: [StoredCountdown] = []
            var n = 0
            for (i, id) in ids.enumerated() {
                for j in 0..<6 {
                    n += 1
                    let every = max(CountdownRange.shortestEvery, durations[(i + j) % durations.count])
                    let total = durations[(i * 3 + j) % durations.count]
                    let wall = instants[(i + 2 * j) % instants.count]
                    let paused = pausedOnly || j % 2 == 0
                    let state: StoredCountdown.State = paused ? .paused : (j % 3 == 1 ? .finished : .running)
                    // A running record whose end has passed is listed as finished.
                    let deadline = state == .running ? min(wall, 1_600_000_000_000_000_000) : wall
                    records.append(StoredCountdown(
                        id: "\(id)-\(j)", state: state, kind: j % 4 == 1 ? .wall : .duration, wallDeadline: deadline,
                        pausedRemaining: paused ? durations[(i + j * 5) % durations.count] : nil,
                        every: every, total: total, bootID: nil, bootDeadline: nil, updatedAt: 1_700_000_000_000_000_000 + Int64(n),
                        title: j % 3 == 2 ? nil : titles[(i + j) % titles.count], actions: Array(actionNames.prefix((i + j) % 4))))
                }
            }
            return records
        }

        // MARK: The reference: the listing as it was built before it was streamed.

        struct Entry: Encodable {
            let id: String, state: String, kind: String, remaining: Double, deadline: String?, every: Double, total: Double
            /// Seconds past the end of an overtime countdown; null for one without overtime.
            let overtime: Double?
            let title: String?
            let actions: [String]
            func encode(to encoder: any Encoder) throws {
                var c = encoder.container(keyedBy: CodingKeys.self)
                try c.encode(id, forKey: .id)
                try c.encode(state, forKey: .state)
                try c.encode(kind, forKey: .kind)
                try c.encode(remaining, forKey: .remaining)
                try c.encode(deadline, forKey: .deadline)
                try c.encode(every, forKey: .every)
                try c.encode(total, forKey: .total)
                try c.encode(overtime, forKey: .overtime)
                try c.encode(title, forKey: .title)
                try c.encode(actions, forKey: .actions)
            }
            enum CodingKeys: String, CodingKey { case id, state, kind, remaining, deadline, every, total, overtime, title, actions }
        }

        static func clock(_ ns: Nanoseconds) -> String {
            let pattern = ns >= 86_400 * Time.nanosecondsPerSecond ? "{d}d {hh}:{mm}:{ss}.{t}" : "{hh}:{mm}:{ss}.{t}"
            return (try? FormatPattern(pattern).render(ns)) ?? "\(Time.seconds(ns))"
        }

        static func iso8601(_ wall: Nanoseconds) -> String {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            formatter.timeZone = TimeZone(identifier: "UTC")
            return formatter.string(from: Date(timeIntervalSince1970: Double(wall) / 1e9))
        }

        static func referenceJSON(_ countdowns: [StoredCountdown], at now: StoreInstant) -> String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
            if countdowns.isEmpty { return "[]\n" }
            let entries = countdowns.map { c in
                let state = c.effectiveState(at: now)
                return Entry(id: c.id, state: state.rawValue, kind: c.kind.rawValue, remaining: Time.seconds(c.remaining(at: now)),
                             deadline: state == .paused ? nil : iso8601(c.wallDeadline(at: now)),
                             every: Time.seconds(c.every), total: Time.seconds(c.total),
                             overtime: c.overtime ? Time.seconds(c.timePastEnd(at: now)) : nil, title: c.title, actions: c.actions)
            }
            let data = try! encoder.encode(entries)
            return VisibleText.jsonEscapingControls(String(decoding: data, as: UTF8.self)) + "\n"
        }

        static func referenceTable(_ countdowns: [StoredCountdown], at now: StoreInstant) -> String {
            // A TITLE column only when some countdown has a title.
            let titled = countdowns.contains { $0.title != nil }
            let rows = [["ID", "STATE", "REMAINING", "DEADLINE"] + (titled ? ["TITLE"] : [])] + countdowns.map { c in
                let state = c.effectiveState(at: now)
                return [VisibleText.escaped(c.id), state.rawValue, clock(c.remaining(at: now)),
                        state == .paused ? "-" : iso8601(c.wallDeadline(at: now))] + (titled ? [VisibleText.escaped(c.title ?? "")] : [])
            }
            let widths = (0..<rows[0].count).map { column in rows.map { DisplayWidth.of($0[column]) }.max() ?? 0 }
            return rows.map { row in
                row.enumerated().map { i, cell in
                    i == row.count - 1 ? cell : DisplayWidth.padded(cell, toColumns: widths[i])
                }.joined(separator: "  ") + "\n"
            }.joined()
        }

        /// Any instant: these records list the same at every one.
        static let now = StoreInstant(boot: 1, wall: 1_750_000_000_000_000_000, bootID: nil)

        static func sorted(_ records: [StoredCountdown]) -> [StoredCountdown] {
            records.sorted { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
        }

        /// Where two outputs part: the byte, and a little of each from the line it is in.
        static func difference(_ got: String, _ expected: String) -> String {
            let at = zip(got.utf8, expected.utf8).prefix { $0 == $1 }.count
            func around(_ text: String) -> String {
                let bytes = Array(text.utf8)
                return String(decoding: bytes[max(0, at - 60)..<min(bytes.count, at + 60)], as: UTF8.self)
            }
            return "first difference at byte \(at) of \(got.utf8.count) (expected \(expected.utf8.count)): got …\(around(got))… expected …\(around(expected))…"
        }

        func expectSameOutput(_ store: [String], _ records: [StoredCountdown]) {
            let json = SpawnedRun.run(["list", "--json"] + store)
            #expect(json.exitCode == 0, "\(json.stderr)")
            let expectedJSON = Self.referenceJSON(Self.sorted(records), at: Self.now)
            #expect(json.stdout == expectedJSON, "\(Self.difference(json.stdout, expectedJSON))")
            let table = SpawnedRun.run(["list"] + store)
            #expect(table.exitCode == 0, "\(table.stderr)")
            let expectedTable = Self.referenceTable(Self.sorted(records), at: Self.now)
            #expect(table.stdout == expectedTable, "\(Self.difference(table.stdout, expectedTable))")
        }

        @Test("SQLite: paused and finished countdowns across every field's range, ids that need escaping: the same JSON and table")
        func sqliteSameBytes() throws {
            let dir = Scratch.directory("list-bytes")
            let seed = try LiveProcess.run(["--state-dir", dir, Scratch.script(#"countdown.start{ id = "seed", seconds = 60, persist = true }; os.exit(0)"#)])
            #expect(seed.status == 0, "\(seed.stderr)")
            let records = Self.records()
            let queue = try DatabaseQueue(path: dir + "/state.sqlite")
            try queue.write { db in
                try db.execute(sql: "DELETE FROM countdown")
                for r in records {
                    try db.execute(sql: """
                        INSERT INTO countdown (id, state, kind, wall_deadline, paused_remaining, every, total, boot_id, boot_deadline, updated_at,
                                               title, actions)
                        VALUES (?, ?, ?, ?, ?, ?, ?, NULL, NULL, ?, ?, ?)
                        """, arguments: [r.id, r.state.rawValue, r.kind.rawValue, r.wallDeadline, r.pausedRemaining, r.every, r.total, r.updatedAt,
                                        r.title, r.actions.joined(separator: ",")])
                }
            }
            try queue.close()
            expectSameOutput(["--state-dir", dir], records)
            // Nothing stored: the same as before too.
            let empty = Scratch.directory("list-empty")
            #expect(SpawnedRun.run(["list", "--json", "--state-dir", empty]).stdout == "[]\n")
            #expect(SpawnedRun.run(["list", "--state-dir", empty]).stdout == "no stored countdowns in \(empty)/state.sqlite\n")
        }

        @Test("Redis: the same JSON and table for paused countdowns (their listing does not pass through the server's clock)")
        func redisSameBytes() throws {
            let records = Self.records(pausedOnly: true)
            for r in records {
                var value: [String] = ["1", r.state.rawValue, r.kind.rawValue, String(r.wallDeadline), r.pausedRemaining.map { String($0) } ?? "",
                                       String(r.every), String(r.total), String(r.updatedAt)]
                // The tagged fields (docs/stores.md), the title's '%' and '|' escaped.
                if let title = r.title {
                    let escaped: String = title.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "|", with: "%7C")
                    value.append("title=" + escaped)
                }
                if !r.actions.isEmpty { value.append("actions=" + r.actions.joined(separator: ",")) }
                try server.cli("HSET", "cdscript:countdowns", r.id, value.joined(separator: "|"))
            }
            #expect(try server.cli("HLEN", "cdscript:countdowns") == String(records.count))
            expectSameOutput(["--store", server.url], records)
        }
    }
}
