import CountdownCore
import Foundation
import RedisTestServer
@testable import RedisStore
import Testing

private let s = Time.nanosecondsPerSecond
private let longest = CountdownRange.longestDuration

/// Mutating calls cannot sit inside #expect.
private func did(_ change: () -> Bool) -> Bool { change() }

@Suite("The Redis store is as strict as the SQLite store: one range, bad records named and removable", .serialized)
struct RedisRangeTests: RedisSuite {
    let server: RedisServer

    init() throws { server = try RedisServer() }

    func started(_ id: String, _ length: Nanoseconds, at now: StoreInstant, kind: StoredCountdown.Kind = .duration) -> StoredCountdown {
        StoredCountdown(id: id, state: .running, kind: kind, wallDeadline: now.wall + length, every: s, total: length,
                        bootID: nil, bootDeadline: nil, updatedAt: now.wall)
    }

    @Test("the extremes round-trip: the longest countdown from now, a deadline a second before the latest instant, appends adding up to the bound, a paused one")
    func extremesRoundTrip() throws {
        let store = try store()
        let t = now
        var latest = started("latest", s, at: t, kind: .wall)
        // The server's clock may be ahead of this one by the offset's error: a second of room.
        latest.wallDeadline = CountdownRange.latestInstant - s
        var paused = started("paused", longest, at: t)
        #expect(did { paused.pause(at: t) })
        for record in [started("longest", longest, at: t), latest, paused, started("grown", 60 * s, at: t)] {
            try store.save(record)
        }
        // Up to a second short of the bound: instants pass through the measured
        // offset to the server's clock, whose error (a few ms under load) moves
        // the time left by as much.
        let target = longest - s
        for _ in 0..<4 {
            try store.modify(id: "grown") { record in
                guard var r = record else { return }
                let step = min(longest / 4, target - r.total)
                #expect(r.appendRefusal(step, at: t) == nil)
                #expect(did { r.append(step, at: t) })
                record = r
            }
        }
        let refusal = try store.modify(id: "grown") { $0?.appendRefusal(2 * s, at: t) }
        #expect((refusal ?? nil)?.contains(CountdownRange.longestText) == true)

        // Read back by another connection, as another process would.
        let other = try self.store()
        let listing = try other.listing()
        #expect(listing.unreadable.isEmpty, "\(listing.unreadable)")
        let byID = Dictionary(uniqueKeysWithValues: listing.countdowns.map { ($0.id, $0) })
        #expect(byID["grown"]?.total == target)
        #expect(byID["longest"]?.total == longest)
        #expect(byID["paused"]?.pausedRemaining == longest)
        #expect(abs((byID["latest"]?.wallDeadline ?? 0) - latest.wallDeadline) < 1_000_000_000)
        #expect(abs((byID["longest"]?.wallDeadline ?? 0) - (t.wall + longest)) < 1_000_000_000)
    }

    @Test("a record beyond the range is never written")
    func beyondNotWritten() throws {
        let store = try store()
        var late = started("late", s, at: now, kind: .wall)
        late.wallDeadline = CountdownRange.latestInstant + s
        #expect {
            try store.save(late)
        } throws: { "\($0)".contains("wall_deadline") }
        #expect(try server.cli("HEXISTS", "cdscript:countdowns", "late") == "0")
    }

    /// Records another writer might leave: values near ±2^63, of the wrong type, the wrong shape.
    static let badRecords: [(String, String, String)] = [
        ("max", "1|running|duration|9223372036854775807||1000000000|60000000000|0", "wall_deadline"),
        ("min", "1|running|wall|-9223372036854775808||1000000000|60000000000|0", "wall_deadline"),
        ("paused", "1|paused|duration|0|9223372036854775807|1000000000|60000000000|0", "paused_remaining"),
        ("nopause", "1|paused|duration|0||1000000000|60000000000|0", "paused_remaining"),
        ("total", "1|running|duration|0||1000000000|-1|0", "total"),
        ("every", "1|running|duration|0||0|60000000000|0", "every"),
        ("updated", "1|running|duration|0||1000000000|60000000000|9223372036854775807", "updated_at"),
        ("type", "1|running|duration|soon||1000000000|60000000000|0", "wall_deadline"),
        ("state", "1|sleeping|duration|0||1000000000|60000000000|0", "state"),
        ("shape", "garbage", "record"),
        ("version", "2|running|duration|0||1000000000|60000000000|0", "version"),
    ]

    @Test("RedisRecord.read names the field of each bad record; nothing traps", arguments: badRecords)
    func readNamesTheField(id: String, value: String, field: String) {
        #expect {
            _ = try RedisRecord.read(id: id, value)
        } throws: { ($0 as? StoredValueError)?.field == field }
    }

    @Test("bad records: listing skips and names each, load and modify fail naming it, delete and removeUnreadable remove them; the good one stays")
    func badRecordsNamedAndRemovable() throws {
        let store = try store()
        try store.save(started("good", 60 * s, at: now))
        for (id, value, _) in Self.badRecords { _ = try server.cli("HSET", "cdscript:countdowns", id, value) }

        let listing = try store.listing()
        #expect(listing.countdowns.map(\.id) == ["good"])
        #expect(Set(listing.unreadable.map(\.id)) == Set(Self.badRecords.map(\.0)))
        for (id, _, field) in Self.badRecords {
            let named = listing.unreadable.first { $0.id == id }.map { "\($0)" } ?? ""
            #expect(named.contains("field \(field) = "), "\(named)")
            #expect(named.contains("`cdscript cancel '\(id)'` removes it"), "\(named)")
        }
        #expect(throws: UnreadableCountdown.self) { try store.list() }
        #expect(throws: UnreadableCountdown.self) { try store.load(id: "max") }
        #expect(throws: UnreadableCountdown.self) { try store.modify(id: "min") { _ = $0?.append(s, at: now) } }
        #expect(try server.cli("HGET", "cdscript:countdowns", "min") == Self.badRecords[1].1, "left as it is")
        // Changes to the good one go on.
        try store.modify(id: "good") { _ = $0?.append(s, at: now) }
        #expect(try store.load(id: "good")?.total == 61 * s)

        #expect(try store.delete(id: "max"))
        let removed = try store.removeUnreadable()
        #expect(Set(removed.map(\.id)) == Set(Self.badRecords.map(\.0)).subtracting(["max"]))
        #expect(try store.list().map(\.id) == ["good"])
    }

    @Test("removeFinished skips bad records instead of failing")
    func clearSkipsBadRecords() throws {
        let store = try store()
        let t = now
        var done = started("done", s, at: t)
        done.state = .finished
        try store.save(done)
        _ = try server.cli("HSET", "cdscript:countdowns", "max", Self.badRecords[0].1)
        #expect(try store.removeFinished(at: t) == ["done"])
        #expect(try server.cli("HEXISTS", "cdscript:countdowns", "max") == "1")
    }
}
