import CountdownCore
import Foundation
import RedisTestServer
@testable import RedisStore

/// Running records and the time, for any Redis suite (also those that start
/// replicas, sentinels or a scripted server instead of one redis-server).
protocol RedisRecords {}

/// A suite with a redis-server of its own (started by its `init`, stopped when
/// the suite's value goes): connected stores, running records and the time.
protocol RedisSuite: RedisRecords {
    var server: RedisServer { get }
}

extension RedisSuite {
    /// A store connected to this suite's server, as another process would be.
    func store() throws -> RedisCountdownStore {
        let store = RedisCountdownStore(url: try RedisURL(server.url))
        try store.connect()
        return store
    }
}

extension RedisRecords {
    /// Now, on this machine's clocks, without a boot id (Redis keeps none).
    var now: StoreInstant { StoreInstant.now(bootID: nil) }

    /// A duration countdown running from `now` for `seconds`.
    func record(_ id: String, seconds: Int64, now: StoreInstant? = nil) -> StoredCountdown {
        let wall = (now ?? self.now).wall
        return StoredCountdown(id: id, state: .running, kind: .duration, wallDeadline: wall + seconds * Time.nanosecondsPerSecond,
                               every: Time.nanosecondsPerSecond, total: seconds * Time.nanosecondsPerSecond,
                               bootID: nil, bootDeadline: nil, updatedAt: wall)
    }
}
