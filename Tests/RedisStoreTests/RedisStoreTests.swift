import CountdownCore
import EventLoop
import Foundation
import RedisTestServer
@testable import RedisStore
import Testing

@Suite("The Redis store against a real redis-server", .serialized)
struct RedisStoreTests: RedisSuite {
    let server: RedisServer

    init() throws { server = try RedisServer() }

    @Test("URLs: host, port, database and password; rediss:// asks for TLS; the password never shows")
    func urls() throws {
        let u = try RedisURL("redis://:s3cret@example.org:6380/2")
        #expect(u.host == "example.org" && u.port == 6380 && u.database == 2 && u.password == "s3cret" && u.user == nil)
        #expect(u.description == "redis://:***@example.org:6380/2")
        #expect(try RedisURL("redis://localhost") == RedisURL("redis://localhost:6379/0"))
        #expect(try RedisURL("redis://me:pw@h").user == "me")
        #expect(try RedisURL("rediss://h").tls != nil && RedisURL("redis://h").tls == nil)
        #expect(try RedisURL("rediss://:pw@h:1").description == "rediss://:***@h:1/0")
        do {
            _ = try RedisURL("rediss://:pw@h:1?bogus")
            Issue.record("an unknown TLS setting was accepted")
        } catch { #expect(!"\(error)".contains("pw")) }
        #expect(throws: RedisURL.Invalid.self) { try RedisURL("redis://h:99999") }
        #expect(throws: RedisURL.Invalid.self) { try RedisURL("redis://h/x") }
        #expect(throws: RedisURL.Invalid.self) { try RedisURL("http://h") }
    }

    @Test("the server clock: offset from the boot clock, measured with the round trip; instants stored on the server's clock")
    func serverClock() throws {
        let s = try store()
        let offset = try #require(s.clock.offset)
        #expect(s.clock.roundTrip < 50_000_000)
        let wallShift = s.clock.wallShift()
        // This machine's wall clock is the server's clock: the shift is about zero.
        #expect(abs(wallShift) < 5_000_000, "\(wallShift)")
        #expect(offset > 0)
        try s.save(record("k", seconds: 10, now: now))
        let raw = try server.cli("HGET", "cdscript:countdowns", "k")
        let stored = try #require(RedisRecord.decode(id: "k", raw))
        let serverNow = Int64(try server.cli("TIME").split(separator: "\n")[0])! * 1_000_000_000
        #expect(abs(stored.wallDeadline - serverNow - 10_000_000_000) < 1_100_000_000)
    }

    @Test("offline changes replay onto what others did meanwhile: appends add, a pause keeps others' appends")
    func rebase() {
        let s: Int64 = 1_000_000_000
        let base = StoredCountdown(id: "r", state: .running, kind: .duration, wallDeadline: 100 * s, every: s, total: 100 * s,
                                   bootID: nil, bootDeadline: nil, updatedAt: 0)
        var mine = base
        mine.append(10 * s, at: StoreInstant(boot: 0, wall: 5 * s, bootID: nil))
        var theirs = base
        theirs.append(3 * s, at: StoreInstant(boot: 0, wall: 6 * s, bootID: nil))
        let merged = RedisRecord.rebase(before: base, after: mine, onto: theirs, at: 5 * s)
        #expect(merged?.total == 113 * s && merged?.wallDeadline == 113 * s)
        var paused = base
        paused.pause(at: StoreInstant(boot: 0, wall: 50 * s, bootID: nil))
        let pausedOnto = RedisRecord.rebase(before: base, after: paused, onto: theirs, at: 50 * s)
        #expect(pausedOnto?.state == .paused && pausedOnto?.pausedRemaining == 53 * s)
        #expect(RedisRecord.rebase(before: base, after: nil, onto: theirs, at: 0) == nil)
    }

    @Test("unreachable: the first operation fails with the URL in the message")
    func unreachable() throws {
        let port = try RedisServer.freePort()
        let s = RedisCountdownStore(url: try RedisURL("redis://127.0.0.1:\(port)"))
        #expect(throws: RedisError.self) { try s.load(id: "x") }
        do { _ = try s.list() } catch { #expect("\(error)".contains("127.0.0.1:\(port)")) }
    }

    @Test("lost mid-way: changes are kept, applied in order on reconnect, each once; a restart with persistence loses nothing")
    func lostAndBack() throws {
        let s = try store()
        try s.save(record("q", seconds: 100, now: now))
        server.stop()
        try s.modify(id: "q") { $0?.append(1_000_000_000, at: now) }
        try s.modify(id: "q") { $0?.append(2_000_000_000, at: now) }
        #expect(s.isOffline)
        #expect(s.pendingCount == 2)
        #expect(try s.load(id: "q")?.total == 103_000_000_000, "offline reads see the queued changes")
        #expect(!s.reconnect())
        try server.start()
        // Another process appended meanwhile (after the restart): both count.
        let other = try store()
        try other.modify(id: "q") { $0?.append(10_000_000_000, at: now) }
        #expect(s.reconnect())
        #expect(s.replayPending(forMilliseconds: 1000))
        #expect(s.pendingCount == 0)
        #expect(s.lostIDs.isEmpty, "a restart with persistence lost nothing")
        #expect(try other.load(id: "q")?.total == 113_000_000_000)
    }
}
