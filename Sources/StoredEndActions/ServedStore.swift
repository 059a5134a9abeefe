import CountdownCore
import RedisStore
import SQLiteStore
import SystemIdentity

/// The store `serve` follows, as the runner needs it: the records and their end
/// claims, the change feed that says which records changed (the one `watch`
/// follows), and the instant records are read at.
public struct ServedStore {
    public typealias Backend = CountdownStoreBackend & EndClaiming

    public let backend: Backend
    /// Where it is, for messages: the SQLite file, or the Redis URL.
    public let location: String
    /// Makes the feed, given the timer it may arm (one, owned by the runner's loop).
    let makeFeed: (WakeUpTimer) throws -> CountdownChangeFeed
    /// The instant records are read at.
    let now: () throws -> StoreInstant

    public init(backend: Backend, location: String, makeFeed: @escaping (WakeUpTimer) throws -> CountdownChangeFeed,
                now: @escaping () throws -> StoreInstant) {
        self.backend = backend
        self.location = location
        self.makeFeed = makeFeed
        self.now = now
    }

    /// The SQLite store in `directory` (the state folder). Durations stored by a
    /// process of this boot run on the boot clock, as every command reads them.
    public static func sqlite(_ store: SQLiteCountdownStore) -> ServedStore {
        ServedStore(backend: store, location: store.path, makeFeed: { timer in try SQLiteChangeWatcher(store: store, recheck: timer) },
                    now: { StoreInstant.now(bootID: BootID.current) })
    }

    /// A Redis store: instants on the local clocks, which the store turns into its
    /// server's (no boot id applies across machines).
    public static func redis(_ store: RedisCountdownStore) -> ServedStore {
        ServedStore(backend: store, location: store.url.description, makeFeed: { timer in RedisChangeFeed(store: store, timer: timer) },
                    now: {
                        try store.connect()
                        return StoreInstant.now(bootID: nil)
                    })
    }
}
