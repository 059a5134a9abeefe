import CountdownCore
import SQLiteStore
import EventLoop
import Foundation
import GRDB
import RedisStore
import RedisTestServer
import Testing

let s = Time.nanosecondsPerSecond

/// Every store a countdown can be kept in. A suite that takes
/// `StoreKind.allCases` as its arguments holds each of them to the same promises
/// (`CountdownStoreBackend`, `EndClaiming`, `CountdownChangeFeed`); what only one
/// store does (SQLite's migrations, Redis's outage queue) is tested beside it.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case inMemory = "in memory"
    case sqlite = "SQLite"
    case redis = "Redis"
    /// Redis again, reached over TLS (rediss://, certificates made by the test).
    case redisOverTLS = "Redis over TLS"

    var testDescription: String { rawValue }

    /// The stores several processes share, each through a handle of its own.
    static let shared: [StoreKind] = [.sqlite, .redis, .redisOverTLS]

    /// Either way of reaching Redis.
    var isRedis: Bool { self == .redis || self == .redisOverTLS }
}

/// A store of one kind, fresh and empty, and what a test needs around it: more
/// handles on it (as other processes hold), its change feed, a way to plant a
/// record it cannot read, and the time. A Redis store has a redis-server of its
/// own, stopped when the fixture goes, also when the test fails.
final class StoreFixture {
    typealias Store = CountdownStoreBackend & EndClaiming

    let kind: StoreKind
    /// The store, as this test's process holds it.
    let store: Store
    private let memory: InMemoryCountdownStore?
    private let directory: String?
    private let server: RedisServer?
    private let certificates: TestCertificates?
    /// The loop timers change feeds need, kept as long as their feeds.
    private var timers: [LoopTimer] = []

    init(_ kind: StoreKind) throws {
        self.kind = kind
        switch kind {
        case .inMemory:
            let memory = InMemoryCountdownStore()
            (self.memory, directory, server, certificates) = (memory, nil, nil, nil)
            store = memory
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("cdscript-conformance-\(UUID().uuidString)").path
            (memory, self.directory, server, certificates) = (nil, directory, nil, nil)
            store = SQLiteCountdownStore(directory: directory)
        case .redis, .redisOverTLS:
            let certificates = kind == .redisOverTLS ? try TestCertificates(serverOnly: true) : nil
            let server = try RedisServer(tls: certificates.map {
                RedisServer.TLS(cert: $0.server.cert, key: $0.server.key, ca: $0.ca)
            })
            (memory, directory, self.server, self.certificates) = (nil, nil, server, certificates)
            let redis = RedisCountdownStore(url: try Self.url(server, certificates))
            try redis.connect()
            store = redis
        }
    }

    /// The server's URL; over TLS, trusting the test's CA only.
    private static func url(_ server: RedisServer, _ certificates: TestCertificates?) throws -> RedisURL {
        var url = try RedisURL(server.url)
        if let certificates { url.tls = RedisTLSSettings(caFile: certificates.ca) }
        return url
    }

    deinit {
        if let directory { try? FileManager.default.removeItem(atPath: directory) }
    }

    /// Another handle on the same store, as another process holds it: a
    /// connection of its own (the same object, in memory).
    func another() throws -> Store {
        switch kind {
        case .inMemory: return memory!
        case .sqlite: return SQLiteCountdownStore(directory: directory!)
        case .redis, .redisOverTLS:
            let redis = RedisCountdownStore(url: try Self.url(server!, certificates))
            try redis.connect()
            return redis
        }
    }

    /// A feed of the changes other handles make, following `store` (a handle of
    /// `another()`); nil for a store only one process uses.
    func changeFeed(following store: Store) throws -> CountdownChangeFeed? {
        let timer = try LoopTimer()
        timers.append(timer)
        switch kind {
        case .inMemory: return nil
        case .sqlite: return try SQLiteChangeWatcher(store: store as! SQLiteCountdownStore, recheck: timer)
        case .redis, .redisOverTLS: return RedisChangeFeed(store: store as! RedisCountdownStore, timer: timer)
        }
    }

    /// Stores under `id` a record that cannot be read as a countdown, as another
    /// writer (a damaged file, a foreign client) might leave it. False for a
    /// store that holds only what it was given (in memory).
    func plantUnreadable(id: String) throws -> Bool {
        switch kind {
        case .inMemory:
            return false
        case .sqlite:
            let queue = try DatabaseQueue(path: (store as! SQLiteCountdownStore).path)
            try queue.write { db in
                try db.execute(sql: """
                    INSERT INTO countdown (id, state, kind, wall_deadline, every, total, updated_at)
                    VALUES (?, 'running', 'duration', 0, 'often', 1, 0)
                    """, arguments: [id])
            }
            try queue.close()
            return true
        case .redis, .redisOverTLS:
            try server!.cli("HSET", "cdscript:countdowns", id, "1|running|duration|soon||1000000000|60000000000|0")
            return true
        }
    }

    /// Now, as the commands read it: this machine's clocks, and the boot id for
    /// a store that keeps boot-clock deadlines (Redis keeps instants on its
    /// server's clock, and no boot id).
    var now: StoreInstant {
        let clock = BootClock()
        return StoreInstant(boot: clock.bootNow(), wall: clock.wallNow(), bootID: kind.isRedis ? nil : "boot-A")
    }

    /// `nanoseconds` after `instant`, for end-claim leases. A store that takes
    /// the time from its caller is handed it without waiting; Redis ends a
    /// lease on its server's clock, so the time really passes.
    func instant(_ nanoseconds: Nanoseconds, after instant: StoreInstant) -> StoreInstant {
        guard kind.isRedis else {
            return StoreInstant(boot: instant.boot + nanoseconds, wall: instant.wall + nanoseconds, bootID: instant.bootID)
        }
        let target = instant.wall + nanoseconds
        while now.wall < target { usleep(useconds_t(max(1_000, min(50_000, (target - now.wall) / 1_000)))) }
        return now
    }

    /// How far an instant read back may be from the one stored: Redis passes
    /// instants through a measured offset to its server's clock, whose error is a
    /// few milliseconds on a busy machine (a second of room); the others keep
    /// them exactly.
    var instantTolerance: Nanoseconds { kind.isRedis ? s : 0 }

    /// A countdown of `length` running from `now`, as `countdown.start` stores it.
    func started(_ id: String, _ length: Nanoseconds, at now: StoreInstant, kind: StoredCountdown.Kind = .duration) -> StoredCountdown {
        StoredCountdown(id: id, state: .running, kind: kind, wallDeadline: now.wall + length, every: s, total: length,
                        bootID: now.bootID, bootDeadline: kind == .duration && now.bootID != nil ? now.boot + length : nil,
                        updatedAt: now.wall)
    }

    /// True when `read` is `stored` read back: every field the same, instants
    /// within `instantTolerance`.
    func same(_ read: StoredCountdown?, _ stored: StoredCountdown) -> Bool {
        guard var read else { return false }
        if abs(read.wallDeadline - stored.wallDeadline) <= instantTolerance { read.wallDeadline = stored.wallDeadline }
        if abs(read.updatedAt - stored.updatedAt) <= instantTolerance { read.updatedAt = stored.updatedAt }
        return read == stored
    }
}

/// Mutating calls cannot sit inside #expect.
func did(_ change: () -> Bool) -> Bool { change() }
