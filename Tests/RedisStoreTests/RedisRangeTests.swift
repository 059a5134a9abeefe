import CountdownCore
import Foundation
import RedisTestServer
@testable import RedisStore
import Testing

private let s = Time.nanosecondsPerSecond

@Suite("The Redis store is as strict as the SQLite store: one range, bad records named and removable", .serialized)
struct RedisRangeTests: RedisSuite {
    let server: RedisServer

    init() throws { server = try RedisServer() }

    func started(_ id: String, _ length: Nanoseconds, at now: StoreInstant, kind: StoredCountdown.Kind = .duration) -> StoredCountdown {
        StoredCountdown(id: id, state: .running, kind: kind, wallDeadline: now.wall + length, every: s, total: length,
                        bootID: nil, bootDeadline: nil, updatedAt: now.wall)
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

    @Test("bad records: listing skips and names each, load and modify fail naming it, delete and clear remove them; the good one stays")
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
        let removed = try store.clear(at: now).unreadable
        #expect(Set(removed.map(\.id)) == Set(Self.badRecords.map(\.0)).subtracting(["max"]))
        #expect(try store.list().map(\.id) == ["good"])
    }
}
