import CountdownCore
import FoundationEssentials

/// The countdown store of a `cdscript test` run, fresh for every test.
///
/// Without a store of the run's own, each test gets a new `InMemoryCountdownStore`.
/// With one (`--state-dir`, `--store`: an integration test against SQLite or
/// Redis), each test works under an id prefix of its own, unique to the run and
/// the test, which the spec never sees: `persist`, `fetch` and every change use
/// the spec's ids, listings show only the test's countdowns with their own ids,
/// and what a test stored is removed after it. Runs sharing one store (two CI
/// jobs on one Redis) therefore never see each other's countdowns.
public final class TestStore {
    /// The run's own store, or nil for one in memory per test.
    let shared: CountdownStoreBackend?
    /// `cdscript-test/RUN/`: what every id of this run starts with in `shared`.
    public let runPrefix: String
    /// This test's store and id prefix.
    private(set) var current: CountdownStoreBackend
    private(set) var prefix: String
    private var testNumber = 0
    /// Called with the spec's id after each change made through a `view`, with
    /// the number of the member (process) that made it.
    var changed: (_ member: Int, _ id: String) -> Void = { _, _ in }

    /// `shared`: the run's store (nil: in memory); `runID` tells this run's ids apart.
    public init(shared: CountdownStoreBackend?, runID: String = TestStore.newRunID()) {
        self.shared = shared
        runPrefix = "cdscript-test/\(runID)/"
        current = shared ?? InMemoryCountdownStore()
        prefix = shared == nil ? "" : runPrefix + "0/"
    }

    /// A short random id for a run.
    public static func newRunID() -> String {
        String(UUID().uuidString.prefix(8)).lowercased()
    }

    /// A test starts: a store with nothing in it.
    func beginTest() {
        removeStored()
        testNumber += 1
        if let shared {
            prefix = runPrefix + "\(testNumber)/"
            current = shared
        } else {
            current = InMemoryCountdownStore()
        }
    }

    /// Removes what the test stored (from a real store; one in memory is dropped
    /// with the test). Returns a message when it could not.
    @discardableResult
    func removeStored() -> String? {
        guard let shared else {
            current = InMemoryCountdownStore()
            return nil
        }
        return Self.remove(prefix: prefix, from: shared)
    }

    /// Removes every countdown whose id starts with `prefix`: what a run left in
    /// a real store. Returns why it could not, or nil.
    @discardableResult
    public static func remove(prefix: String, from store: CountdownStoreBackend) -> String? {
        do {
            let listing = try store.listing()
            let ids = listing.countdowns.map(\.id) + listing.unreadable.filter(\.idIsText).map(\.id)
            for id in ids where id.utf8.starts(with: prefix.utf8) {
                try store.delete(id: id)
            }
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// The store as process `member` sees it.
    func view(member: Int) -> CountdownStoreBackend {
        TestStoreView(owner: self, member: member)
    }

    fileprivate func stored(_ id: String) -> String { prefix + id }

    /// The spec's id of a stored one, or nil when it is not this test's.
    fileprivate func spec(_ storedID: String) -> String? {
        guard !prefix.isEmpty else { return storedID }
        guard storedID.utf8.starts(with: prefix.utf8) else { return nil }
        return String(decoding: storedID.utf8.dropFirst(prefix.utf8.count), as: UTF8.self)
    }

    fileprivate func toSpec(_ record: StoredCountdown) -> StoredCountdown? {
        guard let id = spec(record.id) else { return nil }
        var copy = record
        copy.id = id
        return copy
    }

    fileprivate func toStored(_ record: StoredCountdown) -> StoredCountdown {
        var copy = record
        copy.id = stored(record.id)
        return copy
    }
}

/// One process's door to the test's store: ids mapped to and from the test's
/// prefix, and each change announced, so that the other processes follow it.
private final class TestStoreView: CountdownStoreBackend {
    let owner: TestStore
    let member: Int

    init(owner: TestStore, member: Int) {
        self.owner = owner
        self.member = member
    }

    var store: CountdownStoreBackend { owner.current }

    func load(id: String) throws -> StoredCountdown? {
        try store.load(id: owner.stored(id)).flatMap(owner.toSpec)
    }

    func list() throws -> [StoredCountdown] {
        try store.list().compactMap(owner.toSpec)
    }

    func listing() throws -> StoredCountdownListing {
        let listing = try store.listing()
        return StoredCountdownListing(
            countdowns: listing.countdowns.compactMap(owner.toSpec),
            unreadable: listing.unreadable.compactMap { bad in
                owner.spec(bad.id).map { UnreadableCountdown(id: $0, idIsText: bad.idIsText, location: bad.location, problem: bad.problem) }
            })
    }

    func save(_ countdown: StoredCountdown) throws {
        try store.save(owner.toStored(countdown))
        owner.changed(member, countdown.id)
    }

    func delete(id: String) throws -> Bool {
        let removed = try store.delete(id: owner.stored(id))
        owner.changed(member, id)
        return removed
    }

    func modify<Result>(id: String, _ change: (inout StoredCountdown?) -> Result) throws -> Result {
        let result = try store.modify(id: owner.stored(id)) { record in
            var local = record.flatMap(owner.toSpec)
            let result = change(&local)
            record = local.map(owner.toStored)
            return result
        }
        owner.changed(member, id)
        return result
    }
}
