import CountdownCore
import Foundation
import RedisTestServer
@testable import RedisStore
import Testing

private let s = Time.nanosecondsPerSecond

/// Issue 37: an overtime countdown is kept in Redis, in a 9th field that only
/// overtime records carry, so every other record stays readable by older builds.
@Suite("The Redis store keeps overtime countdowns", .serialized)
struct RedisOvertimeTests: RedisSuite {
    let server: RedisServer

    init() throws { server = try RedisServer() }

    /// Started 60 s ago for 35 s: 25 s past its end at `t`.
    func overtime(_ id: String, at t: StoreInstant) -> StoredCountdown {
        StoredCountdown(id: id, state: .running, kind: .duration, wallDeadline: t.wall - 25 * s, every: s, total: 35 * s,
                        bootID: nil, bootDeadline: nil, updatedAt: t.wall - 60 * s, overtime: true)
    }

    @Test("only an overtime record has the 9th field; an 8-field record, as older builds write, reads as not overtime")
    func encoding() throws {
        let store = try store()
        let t = now
        try store.save(overtime("o", at: t))
        try store.save(record("p", seconds: 60, now: t))
        let o = try server.cli("HGET", "cdscript:countdowns", "o").split(separator: "|", omittingEmptySubsequences: false)
        let p = try server.cli("HGET", "cdscript:countdowns", "p").split(separator: "|", omittingEmptySubsequences: false)
        #expect(o.count == 9 && o.last == "overtime")
        #expect(p.count == 8)
        _ = try server.cli("HSET", "cdscript:countdowns", "old", "1|running|duration|\(t.wall - s)||1000000000|60000000000|\(t.wall)")
        let old = try #require(try store.load(id: "old"))
        #expect(!old.overtime)
        #expect(old.effectiveState(at: now) == .finished)
    }

    @Test("a 9th field other than 'overtime' is named as a bad record", arguments: [
        "1|running|duration|0||1000000000|60000000000|0|yes", "1|running|duration|0||1000000000|60000000000|0|overtime|x",
    ])
    func badNinthField(value: String) {
        #expect {
            _ = try RedisRecord.read(id: "x", value)
        } throws: { ["overtime", "record"].contains(($0 as? StoredValueError)?.field) }
    }
}
