/// Where countdowns are kept between processes. The Lua host uses this seam; an
/// adapter (the SQLite store) implements it, and `InMemoryCountdownStore` stands in
/// for it in tests. Every call commits before it returns.
///
/// Errors are the adapter's own; their description names the store and says what
/// went wrong.
public protocol CountdownPersistence: AnyObject {
    /// The countdown stored under `id`, or nil.
    func load(id: String) throws -> StoredCountdown?
    /// Every stored countdown, ordered by id; fails when one cannot be read.
    func list() throws -> [StoredCountdown]
    /// The stored countdowns that can be read, ordered by id, and the records
    /// that cannot, each named: one bad record never hides the others.
    func listing() throws -> StoredCountdownListing
    /// Stores `countdown`, replacing whatever was stored under its id.
    func save(_ countdown: StoredCountdown) throws
    /// Removes the countdown stored under `id`; returns false when there was none.
    @discardableResult
    func delete(id: String) throws -> Bool
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

extension CountdownPersistence {
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

    /// One `load` per id.
    public func loadEach(ids: [String]) throws -> [(id: String, record: Swift.Result<StoredCountdown?, any Error>)] {
        ids.map { id in (id, Swift.Result { try load(id: id) }) }
    }

    /// For a store whose records are always readable.
    public func listing() throws -> StoredCountdownListing {
        StoredCountdownListing(countdowns: try list())
    }
}

/// A store in memory, for tests and for hosts that run on a virtual clock.
public final class InMemoryCountdownStore: CountdownPersistence {
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

    public func save(_ countdown: StoredCountdown) throws {
        countdowns[CountdownID(countdown.id)] = countdown
        commits += 1
    }

    public func delete(id: String) throws -> Bool {
        commits += 1
        return countdowns.removeValue(forKey: CountdownID(id)) != nil
    }

    public func modify<Result>(id: String, _ change: (inout StoredCountdown?) -> Result) throws -> Result {
        var record = countdowns[CountdownID(id)]
        let result = change(&record)
        countdowns[CountdownID(id)] = record
        commits += 1
        return result
    }
}
