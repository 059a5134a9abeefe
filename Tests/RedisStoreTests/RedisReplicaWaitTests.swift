import CountdownCore
import Foundation
import RedisTestServer
@testable import RedisStore
import Synchronization
import Testing

/// Waiting for replicas (`?wait=N&wait-timeout=…`, Redis's WAIT after each
/// change): a change counts as done once N replicas hold it, against a real
/// primary and a replica of it.
@Suite("Redis changes that wait for replicas", .serialized)
struct RedisReplicaWaitTests: RedisRecords {
    @Test("wait settings: in the query of every kind of store URL, layered option over query over environment; values that do not read are refused, naming them")
    func settings() throws {
        #expect(try RedisURL("redis://h?wait=1&wait-timeout=500ms").wait == RedisReplicaWait(replicas: 1, timeoutMilliseconds: 500))
        #expect(try RedisURL("rediss://h?wait=2&wait-timeout=1.5s&cacert=/ca.pem").wait == RedisReplicaWait(replicas: 2, timeoutMilliseconds: 1_500))
        #expect(try RedisURL("redis-sentinel://s1,s2/main/3?wait=1&wait-timeout=250").wait == RedisReplicaWait(replicas: 1, timeoutMilliseconds: 250))
        #expect(try RedisURL("redis://h").wait.replicasToWaitFor == 0, "nothing said: no WAIT")
        #expect(try RedisURL("redis://h?wait=1").wait.effectiveTimeoutMilliseconds == RedisReplicaWait.defaultTimeoutMilliseconds)

        let layered = try RedisURL("redis://h?wait=2&wait-timeout=300ms")
            .withWait(options: RedisReplicaWait(replicas: 1), environment: RedisReplicaWait(replicas: 3, timeoutMilliseconds: 9_000))
        #expect(layered.wait == RedisReplicaWait(replicas: 1, timeoutMilliseconds: 300))
        #expect(try RedisURL("redis://h").withWait(options: RedisReplicaWait(), environment: RedisReplicaWait(replicas: 1)).wait.replicasToWaitFor == 1)

        for bad in ["redis://:pw@h?wait=-1", "redis://:pw@h?wait=one", "redis://:pw@h?wait", "redis://:pw@h?wait-timeout=0",
                    "redis://:pw@h?wait-timeout=soon", "redis://:pw@h?wait=1&wait-timeout=2h", "redis-sentinel://:pw@s/m?wait-timeout=-5ms"] {
            do {
                _ = try RedisURL(bad)
                Issue.record("\(bad) was accepted")
            } catch {
                #expect("\(error)".contains("wait") && !"\(error)".contains("pw"), "\(error)")
            }
        }
        let environment = ["CDSCRIPT_REDIS_WAIT": "1", "CDSCRIPT_REDIS_WAIT_TIMEOUT": "2s"]
        #expect(try RedisReplicaWait.fromEnvironment { environment[$0] } == RedisReplicaWait(replicas: 1, timeoutMilliseconds: 2_000))
        #expect(throws: RedisURL.Invalid.self) { try RedisReplicaWait.fromEnvironment { $0 == "CDSCRIPT_REDIS_WAIT_TIMEOUT" ? "0" : nil } }
    }

    @Test("rediss-sentinel:// takes the TLS settings for the sentinels and the servers they name; redis-sentinel:// refuses them as plain text")
    func tlsThroughSentinels() throws {
        let u = try RedisURL("rediss-sentinel://:s3cret@10.0.0.1,10.0.0.2:5000/main/2?cacert=/etc/ca.pem&wait=1")
        #expect(u.isSentinel && u.masterName == "main" && u.database == 2)
        #expect(u.tls == RedisTLSSettings(caFile: "/etc/ca.pem") && u.wait.replicasToWaitFor == 1)
        #expect(u.description == "rediss-sentinel://:***@10.0.0.1:26379,10.0.0.2:5000/main/2")
        #expect(RedisURL(sentinel: u.sentinels[1], tls: u.tls).tls == u.tls, "a sentinel is asked over TLS too")
        #expect(try RedisURL("rediss-sentinel://s/m").tls == RedisTLSSettings(), "the system's CAs, verified")
        for bad in ["redis-sentinel://:pw@s/m?cacert=/ca.pem", "redis-sentinel://:pw@s/m?insecure"] {
            #expect(throws: RedisURL.Invalid.self, "\(bad)") { try RedisURL(bad) }
        }
        #expect(throws: RedisURL.Invalid.self) {
            try RedisURL("redis-sentinel://s/m").withTLS(options: RedisTLSSettings(caFile: "/ca.pem"), environment: RedisTLSSettings())
        }
    }

    /// A primary and a replica of it that has synchronised.
    func pair() throws -> (primary: RedisServer, replica: RedisServer) {
        let primary = try RedisServer()
        let replica = try RedisServer(extraArguments: ["--replicaof", "127.0.0.1", String(primary.port)])
        let deadline = Date().addingTimeInterval(30)
        while !((try? replica.cli("INFO", "replication"))?.contains("master_link_status:up") ?? false) {
            guard Date() < deadline else { throw RedisTestFailure("the replica did not synchronise within 30 s") }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return (primary, replica)
    }

    struct RedisTestFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    @Test("with wait=1, a change returns once the replica holds it: it is readable there at once, and nothing is counted unconfirmed")
    func confirmedByTheReplica() throws {
        let (primary, replica) = try pair()
        let store = RedisCountdownStore(url: try RedisURL(primary.url + "?wait=1&wait-timeout=5s"))
        try store.connect()
        for n in 1...20 {
            try store.save(record("c\(n)", seconds: 60))
            #expect(try replica.cli("HEXISTS", "cdscript:countdowns", "c\(n)") == "1", "change \(n) was reported done before the replica had it")
        }
        try store.modify(id: "c1") { $0?.append(5 * Time.nanosecondsPerSecond, at: now) }
        let onReplica = try #require(RedisRecord.decode(id: "c1", try replica.cli("HGET", "cdscript:countdowns", "c1")))
        #expect(onReplica.total == 65 * Time.nanosecondsPerSecond)
        #expect(store.unconfirmedCount == 0 && store.firstUnconfirmed == nil)
    }

    @Test("a replica that does not answer in time: the change is made on the primary, after the timeout, counted unconfirmed and said once, naming how many replicas confirmed it")
    func unconfirmedAfterTheTimeout() throws {
        let (primary, replica) = try pair()
        let store = RedisCountdownStore(url: try RedisURL(primary.url + "?wait=1&wait-timeout=300ms"))
        var notices: [String] = []
        store.notice = { notices.append($0) }
        try store.connect()
        replica.signal(SIGSTOP)
        defer { replica.signal(SIGCONT) }
        let started = Date()
        try store.save(record("u", seconds: 60))
        try store.save(record("v", seconds: 60))
        let took = Date().timeIntervalSince(started)
        #expect(took >= 0.55, "each change waited its 300 ms for the replica: \(took) s for two")
        #expect(try primary.cli("HEXISTS", "cdscript:countdowns", "u") == "1" && primary.cli("HEXISTS", "cdscript:countdowns", "v") == "1")
        #expect(store.unconfirmedCount == 2)
        let first = try #require(store.firstUnconfirmed)
        #expect(first.confirmed == 0 && first.wanted == 1 && first.timeoutMilliseconds == 300 && first.subject == "'u'")
        #expect(notices.count == 1, "said once: \(notices)")
        #expect(notices.first?.contains("is on the primary, but only 0 of 1 replica confirmed it within 300 ms") == true, "\(notices)")
        #expect(!store.isOffline && store.pendingCount == 0, "a slow replica is not an outage")
    }

    @Test("an end claim waits for the replica too: won only once the replica holds the claim")
    func endClaimsWait() throws {
        let (primary, replica) = try pair()
        let store = RedisCountdownStore(url: try RedisURL(primary.url + "?wait=1&wait-timeout=5s"))
        try store.connect()
        let t = now
        let started = t.wall - 60 * Time.nanosecondsPerSecond
        var ending = record("e", seconds: 60)
        ending.wallDeadline = started + 60 * Time.nanosecondsPerSecond
        ending.updatedAt = started
        try store.save(ending)
        let outcome = try store.recordEndAndClaim(id: "e", record: { _ = $0?.finish(at: t, tolerance: Time.nanosecondsPerSecond) },
                                                  owner: "A", lease: 30 * Time.nanosecondsPerSecond, now: t)
        guard case .won = outcome else { Issue.record("no claim: \(outcome)"); return }
        #expect(try replica.cli("EXISTS", "cdscript:end:e") == "1" && replica.cli("EXISTS", "cdscript:end-lease:e") == "1",
                "the claim and its lease are on the replica when it is won")
        #expect(store.unconfirmedCount == 0)
        #expect(try primary.cli("EXISTS", "cdscript:end:e") == "1")
    }

    @Test("a connection lost while waiting for the replicas (the primary died after applying the change): the change is kept under the sequence number it was sent with, to be applied once on the next primary")
    func lostWhileWaiting() throws {
        let sent = Mutex<String?>(nil)
        let server = try ScriptedRedisServer { words in
            switch words.first?.uppercased() {
            case "PING": return "+PONG\r\n"
            case "TIME":
                let now = Date().timeIntervalSince1970
                return ScriptedRedisServer.array([ScriptedRedisServer.bulk(String(Int(now))), ScriptedRedisServer.bulk("0")])
            case "SET": return "+OK\r\n"
            case "GET": return ScriptedRedisServer.bulk("epoch")
            case "SCRIPT": return ScriptedRedisServer.bulk("sha")
            case "EVALSHA":
                sent.withLock { $0 = words.last }
                return ScriptedRedisServer.array([":1\r\n", ScriptedRedisServer.bulk("")])
            // WAIT: no answer at all, as from a server that died after the change.
            default: return ""
            }
        }
        let store = RedisCountdownStore(url: try RedisURL(server.url + "?wait=1&wait-timeout=100ms"))
        store.notice = { _ in }
        store.timeoutMilliseconds = 300
        try store.connect()
        try store.save(record("l", seconds: 60))
        #expect(store.isOffline, "the lost reply took the store offline")
        #expect(store.pendingCount == 1, "the change is kept")
        let number = try #require(sent.withLock { $0 })
        #expect(store.pending.first?.sequence.map(String.init) == number, "kept under the number it was sent with, so a server that has it applies it once")
        #expect(store.unconfirmedCount == 0, "not counted unconfirmed: it is not known to be made")
    }
}
