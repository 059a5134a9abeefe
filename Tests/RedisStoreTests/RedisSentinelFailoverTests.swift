import CountdownCore
import EventLoop
import Foundation
import RedisTestServer
@testable import RedisStore
import Testing

/// Failovers beyond a killed primary (issue 52): a replica promoted while
/// followers hold connections, a demoted primary that is still up or comes
/// back, a sentinel that is down, and the whole group over TLS. Real
/// redis-servers and sentinels on loopback, started here and always stopped.
@Suite("Redis Sentinel failovers: promotion, demotion, sentinels down, TLS", .serialized)
struct RedisSentinelFailoverTests: RedisRecords {
    /// What a feed reported: ids, and whether it asked for everything to be
    /// read again (`.unknown`, after a reconnection: changes published while
    /// nobody listened are not lost).
    struct Reported {
        var ids: Set<CountdownID> = []
        var everything = false
        func covers(_ id: String) -> Bool { everything || ids.contains(CountdownID(id)) }
    }

    /// Runs the feed as a run loop would (poll its descriptors, drain) until
    /// `done` holds or `seconds` pass; returns what it reported.
    @discardableResult
    func follow(_ feed: RedisChangeFeed, for seconds: TimeInterval, until done: (Reported) -> Bool) -> Reported {
        var seen = Reported()
        let deadline = Date().addingTimeInterval(seconds)
        while !done(seen) && Date() < deadline {
            var fds = feed.descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            _ = poll(&fds, nfds_t(fds.count), 20)
            switch feed.drain() {
            case .ids(let ids): seen.ids.formUnion(ids)
            case .unknown: seen.everything = true
            default: break
            }
        }
        return seen
    }

    /// A store through the group's sentinels, with its change feed.
    func follower(_ group: RedisSentinelGroup) throws -> (store: RedisCountdownStore, feed: RedisChangeFeed) {
        let store = RedisCountdownStore(url: try RedisURL(group.url))
        store.notice = { _ in }
        try store.connect()
        return (store, RedisChangeFeed(store: store, timer: try LoopTimer()))
    }

    func total(_ id: String, on server: RedisServer) throws -> Nanoseconds? {
        RedisRecord.decode(id: id, try server.cli("HGET", "cdscript:countdowns", id))?.total
    }

    @Test("a replica promoted while the old primary stays up (SENTINEL FAILOVER): a follower moves to it and sees its changes, and a writer still on the demoted primary gets READONLY, reconnects and writes there once")
    func promotionWithTheOldPrimaryUp() throws {
        let group = try RedisSentinelGroup()
        let (follower, feed) = try follower(group)
        let writer = RedisCountdownStore(url: try RedisURL(group.url))
        writer.notice = { _ in }
        try writer.connect()
        try writer.save(record("p", seconds: 600))
        _ = try follower.load(id: "p")

        let old = group.primary.port
        #expect(try group.sentinels[0].cli("SENTINEL", "FAILOVER", RedisSentinelGroup.masterName) == "OK")
        let newPort = try group.waitForFailover(from: old)
        let promoted = try #require(group.replica.port == newPort ? group.replica : nil)
        // The demoted primary is up, and a replica now.
        let deadline = Date().addingTimeInterval(30)
        while !((try? group.primary.cli("ROLE"))?.hasPrefix("slave") ?? false) && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(try group.primary.cli("ROLE").hasPrefix("slave"), "the old primary was demoted")

        // The writer's connection still goes to the demoted server: READONLY is
        // a lost connection, the change is queued and sent to the new primary.
        try writer.modify(id: "p") { $0?.append(7 * Time.nanosecondsPerSecond, at: now) }
        #expect(writer.reconnect(), "the writer finds the new primary through the sentinels")
        #expect(writer.replayPending(forMilliseconds: 5_000) && writer.pendingCount == 0)
        #expect(try total("p", on: promoted) == 607 * Time.nanosecondsPerSecond, "the append is on the new primary, once")

        // The follower, subscribed to +switch-master, moves to the new primary
        // (reading everything again: what was published meanwhile is not lost).
        let moved = follow(feed, for: 20) { $0.everything && !follower.isOffline }
        #expect(moved.everything && !follower.isOffline, "the follower did not follow the switch")
        // With the demoted server gone too, only a follower on the new primary still reads and hears.
        group.primary.signal(SIGKILL)
        try writer.modify(id: "p") { $0?.append(3 * Time.nanosecondsPerSecond, at: now) }
        let heard = follow(feed, for: 10) { $0.covers("p") }
        #expect(heard.covers("p"), "the follower heard the change made on the promoted replica")
        #expect(try follower.load(id: "p")?.total == 610 * Time.nanosecondsPerSecond, "the follower reads the new primary")
        #expect(!follower.isOffline, "the follower's connections are to the new primary, not the demoted one")
    }

    @Test("a killed primary that comes back is made a replica by the sentinels: stores reach only the new primary, and the old one holds what was written there")
    func demotedPrimaryComesBack() throws {
        let group = try RedisSentinelGroup()
        let (store, feed) = try follower(group)
        try store.save(record("d", seconds: 600))
        let old = group.primary.port
        group.primary.signal(SIGKILL)
        let newPort = try group.waitForFailover(from: old)
        let promoted = try #require(group.replica.port == newPort ? group.replica : nil)
        try group.primary.start()
        // The change is queued if the store still held the dead connection, and sent once it follows the switch.
        try store.modify(id: "d") { $0?.append(11 * Time.nanosecondsPerSecond, at: now) }
        follow(feed, for: 20) { _ in !store.isOffline && store.pendingCount == 0 }
        #expect(!store.isOffline && store.pendingCount == 0)
        #expect(try total("d", on: promoted) == 611 * Time.nanosecondsPerSecond)
        // The sentinels turn the old primary into a replica of the new one, which then holds the change.
        let deadline = Date().addingTimeInterval(60)
        while (try? total("d", on: group.primary)) != 611 * Time.nanosecondsPerSecond && Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        #expect(try group.primary.cli("ROLE").hasPrefix("slave"), "the old primary came back as a replica")
        #expect(try total("d", on: group.primary) == 611 * Time.nanosecondsPerSecond)
        // A new store, asking the sentinels, writes to the new primary only.
        let later = RedisCountdownStore(url: try RedisURL(group.url))
        try later.connect()
        try later.save(record("later", seconds: 60))
        #expect(try promoted.cli("HEXISTS", "cdscript:countdowns", "later") == "1")
    }

    @Test("the sentinel a follower watched goes down before a failover: the follower finds the new primary through the other sentinels")
    func watchedSentinelDown() throws {
        let group = try RedisSentinelGroup()
        let (store, feed) = try follower(group)
        try store.save(record("w", seconds: 600))
        // The feed subscribed to +switch-master on the first sentinel that answered: the first.
        group.sentinels[0].signal(SIGKILL)
        follow(feed, for: 1) { _ in false }
        let old = group.primary.port
        group.primary.signal(SIGKILL)
        // Two sentinels of three still make the quorum of 2.
        let newPort = try group.waitForFailover(from: old)
        let switched = Date()
        try store.modify(id: "w") { $0?.append(2 * Time.nanosecondsPerSecond, at: now) }
        follow(feed, for: 30) { _ in !store.isOffline && store.pendingCount == 0 }
        #expect(!store.isOffline && store.pendingCount == 0, "the follower did not find the new primary \(Date().timeIntervalSince(switched)) s after the switch")
        let promoted = try #require(group.replica.port == newPort ? group.replica : nil)
        #expect(try total("w", on: promoted) == 602 * Time.nanosecondsPerSecond)
    }

    @Test("rediss-sentinel://: the sentinels and the servers speak only TLS; the primary is found, verified against the test's CA, and followed across a failover; a change made meanwhile is replayed once",
          .enabled(if: TestCertificates.toolsMissing == nil, "\(TestCertificates.toolsMissing ?? "")"))
    func failoverOverTLS() throws {
        let certificates = try TestCertificates(serverOnly: true)
        let group = try RedisSentinelGroup(tls: certificates)
        let (store, feed) = try follower(group)
        #expect(store.url.tls?.caFile == certificates.ca && store.url.description.hasPrefix("rediss-sentinel://"))
        try store.save(record("t", seconds: 600))
        #expect(try group.primary.cli("HEXISTS", "cdscript:countdowns", "t") == "1")

        // The sentinels are not trusted without the CA: nothing is reached in plain text or unverified.
        let unverified = RedisCountdownStore(url: try RedisURL(group.url.replacingOccurrences(of: "?cacert=" + certificates.ca, with: "")))
        do {
            try unverified.connect()
            Issue.record("connected without trusting the test's CA")
        } catch {
            #expect("\(error)".contains("certificate verify failed") || "\(error)".contains("no primary"), "\(error)")
        }

        let old = group.primary.port
        group.primary.signal(SIGKILL)
        try store.modify(id: "t") { $0?.append(4 * Time.nanosecondsPerSecond, at: now) }
        let newPort = try group.waitForFailover(from: old)
        let switched = Date()
        follow(feed, for: 20) { _ in !store.isOffline && store.pendingCount == 0 }
        let took = Date().timeIntervalSince(switched)
        #expect(!store.isOffline && store.pendingCount == 0, "still offline \(took) s after the switch")
        #expect(took < 5, "reconnected over TLS \(took) s after the sentinels named the new primary")
        let promoted = try #require(group.replica.port == newPort ? group.replica : nil)
        #expect(try total("t", on: promoted) == 604 * Time.nanosecondsPerSecond, "the append made during the outage is on the new primary, once")
    }
}
