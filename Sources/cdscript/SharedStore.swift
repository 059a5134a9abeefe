import ArgumentParser
import CountdownCore
import CountdownStore
import RedisStore

/// The store a command works on, whichever kind it is: the SQLite file of
/// `--state-dir` (the default) or a Redis server (`--store redis://...`).
protocol SharedStore: AnyObject {
    /// Where it is, for messages: a file path or a Redis URL without its password.
    var location: String { get }
    /// The countdowns, as the Lua host and the commands read and change them.
    var persistence: CountdownPersistence { get }
    /// False when nothing was ever stored there (read-only commands then create nothing).
    var exists: Bool { get }
    /// The instant stored countdowns are read at.
    func now() throws -> StoreInstant
    /// A feed of the changes other processes make.
    func changeFeed() throws -> CountdownChangeFeed
    /// Removes the countdowns that have finished by `now`; returns their ids.
    func removeFinished(at now: StoreInstant) throws -> [String]
    /// Removes the records that cannot be read as countdowns; returns what was removed.
    func removeUnreadable() throws -> [UnreadableCountdown]
}

extension SharedStore {
    func modify<Result>(id: String, _ change: (inout StoredCountdown?) -> Result) throws -> Result? {
        guard exists else { return nil }
        return try persistence.modify(id: id, change)
    }
}

/// The SQLite store of `--state-dir`.
final class SQLiteSharedStore: SharedStore {
    let store: CountdownStore
    private var feed: SQLiteChangeWatcher?

    init(_ store: CountdownStore) { self.store = store }

    var location: String { store.path }
    var persistence: CountdownPersistence { store }
    var exists: Bool { store.fileExists }
    func now() throws -> StoreInstant { storeNow() }

    func changeFeed() throws -> CountdownChangeFeed {
        if let feed { return feed }
        let made = try SQLiteChangeWatcher(store: store)
        feed = made
        return made
    }

    func removeFinished(at now: StoreInstant) throws -> [String] {
        try store.removeFinished(at: now)
    }

    func removeUnreadable() throws -> [UnreadableCountdown] {
        try store.removeUnreadable()
    }
}

/// A Redis server (`--store redis://...`), shared across machines.
final class RedisSharedStore: SharedStore {
    let store: RedisCountdownStore
    private var feed: RedisChangeFeed?

    init(_ store: RedisCountdownStore) {
        self.store = store
        store.notice = { printError($0) }
    }

    var location: String { store.url.description }
    var persistence: CountdownPersistence { store }
    var exists: Bool { true }

    /// Read on the local clocks; the store turns its server-clock instants into
    /// these terms, so no boot id applies.
    func now() throws -> StoreInstant {
        try store.connect()
        let clock = BootClock()
        return StoreInstant(boot: clock.bootNow(), wall: clock.wallNow(), bootID: nil)
    }

    func changeFeed() throws -> CountdownChangeFeed {
        if let feed { return feed }
        let made = RedisChangeFeed(store: store)
        feed = made
        return made
    }

    func removeFinished(at now: StoreInstant) throws -> [String] {
        try store.removeFinished(at: now)
    }

    func removeUnreadable() throws -> [UnreadableCountdown] {
        try store.removeUnreadable()
    }
}
