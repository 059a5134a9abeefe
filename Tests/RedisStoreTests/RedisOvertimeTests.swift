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

    @Test("an overtime record round-trips past its end, running and paused, and another connection sees the same +time")
    func roundTrip() throws {
        let store = try store()
        let t = now
        var paused = overtime("paused", at: t)
        let didPause = paused.pause(at: t)
        #expect(didPause)
        try store.save(overtime("running", at: t))
        try store.save(paused)
        try store.save(record("plain", seconds: 60, now: t))
        let other = try self.store()
        let running = try #require(try other.load(id: "running"))
        #expect(running.overtime && running.isPastEnd(at: t))
        // Instants pass through the measured offset to the server's clock.
        #expect(abs(running.timeLeft(at: t) + 25 * s) < s / 10)
        let pausedBack = try #require(try other.load(id: "paused"))
        #expect(pausedBack.overtime && pausedBack.pausedRemaining == paused.pausedRemaining)
        #expect(try other.load(id: "plain")?.overtime == false)
        #expect(try other.removeFinished(at: t).isEmpty, "past its end, an overtime countdown is not garbage until cancelled")
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
