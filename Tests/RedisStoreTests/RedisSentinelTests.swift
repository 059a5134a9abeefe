import CountdownCore
import EventLoop
import Foundation
import RedisTestServer
@testable import RedisStore
import Testing

/// `redis-sentinel://`: the primary found through the sentinels, and found again
/// after a failover, against a real primary, a replica and three sentinels.
@Suite("Redis through Sentinel failovers", .serialized)
struct RedisSentinelTests: RedisRecords {
    @Test("redis-sentinel:// URLs: sentinels with default ports, the primary's name, a database; the password never shows")
    func urls() throws {
        let u = try RedisURL("redis-sentinel://:s3cret@10.0.0.1,10.0.0.2:5000,[::1]:5001/main/3")
        #expect(u.sentinels == [.init(host: "10.0.0.1", port: 26379), .init(host: "10.0.0.2", port: 5000), .init(host: "::1", port: 5001)])
        #expect(u.masterName == "main" && u.database == 3 && u.password == "s3cret" && u.isSentinel)
        #expect(u.description == "redis-sentinel://:***@10.0.0.1:26379,10.0.0.2:5000,[::1]:5001/main/3")
        #expect(try RedisURL("redis-sentinel://h/m").database == 0)
        for bad in ["redis-sentinel://:pw@h", "redis-sentinel://:pw@h/", "redis-sentinel://:pw@h:0/m", "redis-sentinel://:pw@,h/m", "redis-sentinel://:pw@h/m/x"] {
            do {
                _ = try RedisURL(bad)
                Issue.record("\(bad) was accepted")
            } catch {
                #expect(!"\(error)".contains("pw"), "\(error)")
            }
        }
    }

    @Test("the store reaches the primary the sentinels name, skipping a sentinel that is down")
    func findsThePrimary() throws {
        let group = try RedisSentinelGroup()
        var url = try RedisURL(group.url)
        url.sentinels.insert(.init(host: "127.0.0.1", port: try RedisServer.freePort()), at: 0)
        let store = RedisCountdownStore(url: url)
        try store.connect()
        try store.save(record("a", seconds: 60))
        #expect(try group.primary.cli("HEXISTS", "cdscript:countdowns", "a") == "1")
    }

    @Test("sentinels that disagree: one naming a replica (a failover it has not seen) is passed over for the next, whose primary says it is one")
    func disagreeingSentinels() throws {
        let group = try RedisSentinelGroup()
        let replicaPort = group.replica.port
        let stale = try ScriptedRedisServer { words in
            words.first?.uppercased() == "SENTINEL"
                ? ScriptedRedisServer.array([ScriptedRedisServer.bulk("127.0.0.1"), ScriptedRedisServer.bulk(String(replicaPort))])
                : "-ERR unexpected\r\n"
        }
        var url = try RedisURL(group.url)
        url.sentinels.insert(.init(host: "127.0.0.1", port: stale.port), at: 0)
        let connection = try RedisConnection(url, timeoutMilliseconds: 2_000)
        #expect(try connection.command(["SET", "k", "v"]) == .status("OK"))
        #expect(try group.primary.cli("GET", "k") == "v", "the write went to the primary, not the replica the stale sentinel named")
    }

    @Test("through the sentinels, READONLY from a server that was demoted is a lost connection; through redis:// it is the server's answer")
    func readOnlyIsALostConnection() throws {
        let demoted: @Sendable ([String]) -> String = { words in
            switch words.first?.uppercased() {
            case "ROLE": return ScriptedRedisServer.array([ScriptedRedisServer.bulk("master"), ":0\r\n", "*0\r\n"])
            case "PING": return "+PONG\r\n"
            default: return "-READONLY You can't write against a read only replica.\r\n"
            }
        }
        let primary = try ScriptedRedisServer(answer: demoted)
        let primaryPort = primary.port
        let sentinel = try ScriptedRedisServer { _ in
            ScriptedRedisServer.array([ScriptedRedisServer.bulk("127.0.0.1"), ScriptedRedisServer.bulk(String(primaryPort))])
        }
        let viaSentinel = try RedisConnection(try RedisURL("redis-sentinel://127.0.0.1:\(sentinel.port)/main"), timeoutMilliseconds: 2_000)
        do {
            _ = try viaSentinel.command(["SET", "k", "v"])
            Issue.record("READONLY was taken as an answer")
        } catch {
            #expect(error.connectionLost && error.message.contains("read-only replica now"), "\(error.message)")
        }
        #expect(!viaSentinel.isOpen, "the connection is dropped, to be made again through the sentinels")

        let direct = try ScriptedRedisServer(answer: demoted)
        let plain = try RedisConnection(try RedisURL(direct.url), timeoutMilliseconds: 2_000)
        #expect(try plain.command(["SET", "k", "v"]) == .error("READONLY You can't write against a read only replica."))
    }

    @Test("after the primary is killed, the change feed follows +switch-master to the new primary within a second; a change made meanwhile is journaled and replayed there once")
    func failover() throws {
        let group = try RedisSentinelGroup()
        let url = try RedisURL(group.url)
        let store = RedisCountdownStore(url: url)
        store.notice = { _ in }
        try store.connect()
        let timer = try LoopTimer()
        let feed = RedisChangeFeed(store: store, timer: timer)
        try store.save(record("f", seconds: 600))
        let old = group.primary.port
        group.primary.signal(SIGKILL)
        // A change while no primary answers: kept, counted as made.
        #expect(try store.modify(id: "f") { $0?.append(10 * Time.nanosecondsPerSecond, at: now) ?? false })
        let newPort = try group.waitForFailover(from: old)
        let switched = Date()
        let deadline = switched.addingTimeInterval(20)
        while (store.isOffline || store.pendingCount > 0) && Date() < deadline {
            var fds = feed.descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            _ = poll(&fds, nfds_t(fds.count), 20)
            _ = feed.drain()
        }
        let took = Date().timeIntervalSince(switched)
        #expect(!store.isOffline && store.pendingCount == 0, "still offline \(took) s after the switch")
        #expect(took < 1.0, "reconnected \(took) s after the sentinels named the new primary")
        let promoted = try #require(group.replica.port == newPort ? group.replica : nil)
        let stored = try #require(RedisRecord.decode(id: "f", try promoted.cli("HGET", "cdscript:countdowns", "f")))
        #expect(stored.total == 610 * Time.nanosecondsPerSecond, "the append made during the outage is on the new primary, once")
    }

    @Test("an end claimed on the old primary is held on the new one after a failover (lease and fencing token replicated), and its owner marks it done there")
    func endClaimSurvivesFailover() throws {
        let group = try RedisSentinelGroup()
        // wait=1: a claim is won only once the replica holds it (a redis-cli WAIT on a
        // connection of its own would confirm nothing: WAIT counts that connection's writes).
        let url = try RedisURL(group.url + "?wait=1&wait-timeout=5s")
        let a = RedisCountdownStore(url: url)
        a.notice = { _ in }
        try a.connect()
        let t = now
        let started = StoreInstant(boot: t.boot - 60 * Time.nanosecondsPerSecond, wall: t.wall - 60 * Time.nanosecondsPerSecond, bootID: nil)
        var ending = record("e", seconds: 60)
        ending.wallDeadline = started.wall + 60 * Time.nanosecondsPerSecond
        ending.updatedAt = started.wall
        try a.save(ending)
        let lease = 30 * Time.nanosecondsPerSecond
        let outcome = try a.recordEndAndClaim(id: "e", record: { _ = $0?.finish(at: t, tolerance: Time.nanosecondsPerSecond) },
                                              owner: "A", lease: lease, now: t)
        guard case .won(let claim) = outcome else { Issue.record("no claim: \(outcome)"); return }
        #expect(a.unconfirmedCount == 0, "the replica confirmed the claim before it was called won")
        let old = group.primary.port
        group.primary.signal(SIGKILL)
        _ = try group.waitForFailover(from: old)

        let b = RedisCountdownStore(url: url)
        try b.connect()
        let held = try b.claimEnd(id: "e", expected: nil, owner: "B", lease: lease, now: now)
        // The outcome in the failure's first line (CI shows that line), the sentinels' view after it.
        #expect(String(describing: held).hasPrefix("held("), "\(group.diagnosis())")
        guard case .held(_, let name) = held else { return }
        #expect(name == claim.name)
        a.markLost("the test killed the primary")
        #expect(a.reconnect())
        #expect(try a.finishEndClaim(claim, owner: "A", now: now), "its owner marks it done on the new primary")
        #expect(a.unconfirmedCount == 1, "the done mark waited 5 s for a replica the new primary does not have, and says so")
        #expect(try b.claimEnd(id: "e", expected: nil, owner: "B", lease: lease, now: now) == .done)
    }
}
