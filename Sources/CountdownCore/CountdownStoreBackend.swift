/// Where countdowns are kept between processes: what every store backend
/// implements, and all the Lua host and the commands ask of one. Every call
/// commits before it returns.
///
/// The stores, and the words for them:
/// - `InMemoryCountdownStore` (here): one process's, for `cdscript test` and tests.
/// - `SQLiteCountdownStore` (module SQLiteStore): the SQLite file of `--state-dir`.
/// - `RedisCountdownStore` (module RedisStore): a Redis server, `--store redis://`.
/// - Alongside: `EndClaiming` (EndClaims.swift), which all three implement, and
///   `CountdownChangeFeed`, which the shared ones feed (`SQLiteChangeWatcher`,
///   `RedisChangeFeed`).
/// - Around them: `SharedStore` (cdscript) is the command line's choice of a
///   shared store with what a command needs beside it (its location, the time,
///   its change feed); `StoreBinding` (`host.store`) is the Lua host's part that
///   keeps a store in step with the scheduler.
///
/// What every store promises is tested once, on each of them, by
/// Tests/StoreConformanceTests; code that needs nothing of a store beyond this
/// protocol is written once, in its extensions (`clear(at:)`, `saveAll`, ...).
///
/// Errors are the store's own; their description names the store and says what
/// went wrong.
public protocol CountdownStoreBackend: AnyObject {
    /// Itself when it leaves the countdowns a process runs to that process
    /// (`HandsOverHeldCountdowns`, whose extension says so), nil otherwise: what
    /// the host asks instead of a cast to a protocol, which scans every
    /// conformance in the binary at its first use (0.16 million instructions of
    /// every run that opens a store).
    var handsOverHeldCountdowns: HandsOverHeldCountdowns? { get }
    /// The countdown stored under `id`, or nil.
    func load(id: String) throws -> StoredCountdown?
    /// Every stored countdown, ordered by id; fails when one cannot be read.
    func list() throws -> [StoredCountdown]
    /// The stored countdowns that can be read, ordered by id, and the records
    /// that cannot, each named: one bad record never hides the others.
    func listing() throws -> StoredCountdownListing
    /// What `listing()` gives, handed to `body` in id order a batch of at most
    /// `batchSize` at a time (unreadable records in the batch of their id):
    /// a command that writes every countdown out holds a batch, not the store,
    /// and no single request to the store reads all of it. `body` returns false
    /// to stop early.
    func forEachListed(batchSize: Int, _ body: (StoredCountdownListing) throws -> Bool) throws
    /// Stores `countdown`, replacing whatever was stored under its id.
    func save(_ countdown: StoredCountdown) throws
    /// Removes the countdown stored under `id`; returns false when there was none.
    @discardableResult
    func delete(id: String) throws -> Bool
    /// Removes the countdowns stored under `ids` (`cancel --all`, `countdown.cancel_all()`),
    /// in slices of at most `deleteSlice` (one transaction or one pipeline a slice where
    /// the store can), and returns the ids that were stored, in the order given. A
    /// failure part way leaves the earlier slices removed: it is a `PartialDeleteError`
    /// saying how many.
    func deleteAll(ids: [String]) throws -> [String]
    /// Reads, changes and writes back the countdown stored under `id` in one
    /// transaction, so concurrent changes from several processes are never lost.
    /// `change` receives nil when none is stored; setting nil removes it.
    @discardableResult
    func modify<Result>(id: String, _ change: (inout StoredCountdown?) -> Result) throws -> Result
    /// The countdowns stored under `ids`, read together where the store can (one
    /// transaction, one round trip per slice): each id's record (nil: none
    /// stored) or why it cannot be read. Fails only when the store cannot be used.
    func loadEach(ids: [String]) throws -> [(id: String, record: Swift.Result<StoredCountdown?, any Error>)]
    /// Stores every record, in order, as `save` does: all or none where the store
    /// can (one transaction); elsewhere a failure is a `PartialSaveError` saying
    /// how many were stored.
    func saveAll(_ records: [StoredCountdown]) throws
    /// Removes the countdowns finished by `now` (running ones whose end passed
    /// while no process ran them included; overtime ones stay until cancelled)
    /// and the records that cannot be read as countdowns; returns what was
    /// removed, in id order (`cdscript clear`). A record another process changed
    /// meanwhile so that it no longer qualifies stays. With nothing to clear,
    /// nothing is written.
    func clear(at now: StoreInstant) throws -> (finished: [String], unreadable: [UnreadableCountdown])
}

/// The most ids `deleteAll` removes in one transaction or pipeline: large enough that
/// a million take a few thousand round trips, small enough that one slice never holds
/// a store's writer lock for long.
public let deleteSlice = 2_000

/// `deleteAll` removed `removed` countdowns (of the `attempted` ids it got to), then failed.
public struct PartialDeleteError: Error, CustomStringConvertible {
    public var removed: [String]
    public var underlying: any Error

    public init(removed: [String], underlying: any Error) {
        self.removed = removed
        self.underlying = underlying
    }

    public var description: String {
        "\(underlying) (after removing \(removed.count) countdown\(removed.count == 1 ? "" : "s"))"
    }
}

/// `saveAll` stored the first `stored` of `total` records, then failed.
public struct PartialSaveError: Error, CustomStringConvertible {
    public var stored: Int
    public var total: Int
    public var underlying: any Error
    public init(stored: Int, total: Int, underlying: any Error) {
        self.stored = stored
        self.total = total
        self.underlying = underlying
    }
    public var description: String { "\(underlying) (\(stored) of \(total) stored)" }
}

extension CountdownStoreBackend {
    /// One `save` per record.
    public func saveAll(_ records: [StoredCountdown]) throws {
        for (index, record) in records.enumerated() {
            do {
                try save(record)
            } catch {
                throw PartialSaveError(stored: index, total: records.count, underlying: error)
            }
        }
    }

    /// One `delete` per id: for a store that cannot do better (the in-memory one).
    public func deleteAll(ids: [String]) throws -> [String] {
        var removed: [String] = []
        for id in ids {
            do {
                if try delete(id: id) { removed.append(id) }
            } catch {
                throw PartialDeleteError(removed: removed, underlying: error)
            }
        }
        return removed
    }

    /// One `load` per id.
    public func loadEach(ids: [String]) throws -> [(id: String, record: Swift.Result<StoredCountdown?, any Error>)] {
        ids.map { id in (id, Swift.Result { try load(id: id) }) }
    }

    /// For a store whose records are always readable.
    public func listing() throws -> StoredCountdownListing {
        StoredCountdownListing(countdowns: try list())
    }

    /// For a store held in memory: its listing, in batches.
    public func forEachListed(batchSize: Int, _ body: (StoredCountdownListing) throws -> Bool) throws {
        try StoredCountdownListing.batches(of: try listing(), size: batchSize, body)
    }
}

extension StoredCountdownListing {
    /// Hands `listing` to `body` in id order, at most `size` records (readable or
    /// not) at a time; stops when `body` returns false.
    public static func batches(of listing: StoredCountdownListing, size: Int,
                               _ body: (StoredCountdownListing) throws -> Bool) throws {
        let size = max(1, size)
        var countdowns = listing.countdowns[...]
        var unreadable = listing.unreadable[...]
        while !countdowns.isEmpty || !unreadable.isEmpty {
            var batch = StoredCountdownListing(countdowns: [])
            while batch.countdowns.count + batch.unreadable.count < size, !countdowns.isEmpty || !unreadable.isEmpty {
                if let bad = unreadable.first, countdowns.first.map({ bad.id.precedesInBytes($0.id) }) ?? true {
                    batch.unreadable.append(bad)
                    unreadable.removeFirst()
                } else if let good = countdowns.popFirst() {
                    batch.countdowns.append(good)
                }
            }
            guard try body(batch) else { return }
        }
    }
}

/// A store in memory, for tests and for hosts that run on a virtual clock.
public final class InMemoryCountdownStore: CountdownStoreBackend {
    public private(set) var countdowns: [CountdownID: StoredCountdown] = [:]
    /// Changes committed so far.
    public private(set) var commits = 0
    /// End claims (EndClaims.swift), by id.
    var endClaims: [CountdownID: EndClaimRow] = [:]

    public init() {}

    public func load(id: String) throws -> StoredCountdown? { countdowns[CountdownID(id)] }

    public func list() throws -> [StoredCountdown] {
        countdowns.values.sorted { $0.id.precedesInBytes($1.id) }
    }

    /// Refuses, as every store does, a record beyond `CountdownRange`: a test
    /// run sees the error a real store would give.
    public func save(_ countdown: StoredCountdown) throws {
        try CountdownRange.check(countdown)
        countdowns[CountdownID(countdown.id)] = countdown
        commits += 1
    }

    public func delete(id: String) throws -> Bool {
        commits += 1
        return countdowns.removeValue(forKey: CountdownID(id)) != nil
    }

    public func modify<Result>(id: String, _ change: (inout StoredCountdown?) -> Result) throws -> Result {
        let before = countdowns[CountdownID(id)]
        var record = before
        let result = change(&record)
        if let record, record != before { try CountdownRange.check(record) }
        countdowns[CountdownID(id)] = record
        commits += 1
        return result
    }
}

extension CountdownStoreBackend {
    public var handsOverHeldCountdowns: HandsOverHeldCountdowns? { nil }
}

extension CountdownStoreBackend where Self: HandsOverHeldCountdowns {
    public var handsOverHeldCountdowns: HandsOverHeldCountdowns? { self }
}
