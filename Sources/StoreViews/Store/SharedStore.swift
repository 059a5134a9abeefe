#if canImport(Glibc)
import CommandEnding
import Glibc
#endif
import CountdownCore
import SystemIdentity
import SQLiteStore
import RedisStore
import TerminalView

/// The store a command works on, whichever kind it is: the SQLite file of
/// `--state-dir` (the default) or a Redis server (`--store redis://...`).
public protocol SharedStore: AnyObject {
    /// Where it is, for messages: a file path or a Redis URL without its password.
    var location: String { get }
    /// The countdowns, as the Lua host and the commands read and change them.
    var persistence: CountdownStoreBackend { get }
    /// False when nothing was ever stored there (read-only commands then create nothing).
    var exists: Bool { get }
    /// The instant stored countdowns are read at.
    func now() throws -> StoreInstant
    /// A feed of the changes other processes make; its timers come from `timers`
    /// (the run loop that follows it).
    func changeFeed(timers: WakeUpTimerSource) throws -> CountdownChangeFeed

    /// The boot id a run stamps on the countdowns it stores: instants on this
    /// machine's boot clock are valid only until it reboots. Nil for a store that
    /// keeps instants on a clock of its own, for many machines.
    var bootID: String? { get }
    /// How far a stored instant may move without being taken for a change made
    /// elsewhere; nil keeps the Lua host's default.
    var externalChangeTolerance: Nanoseconds? { get }
    /// Lets changes the store holds back (queued while it is out of reach) count
    /// against the run's memory limit: `charge` takes bytes (negative when they
    /// are freed) and returns false when the limit refuses them.
    func chargeHeldChanges(to charge: @escaping (Int) -> Bool)
    /// At the end of a run: sends what the store still holds back, for at most
    /// `milliseconds`. Returns false, after saying what on stderr, when changes
    /// could not be sent or stored countdowns were lost during the run.
    func finishRun(withinMilliseconds milliseconds: Int) -> Bool
    /// At the end of a command that changed the store: the status it exits with
    /// when its change is not where it said it is (nil: it is), after saying
    /// why on stderr. A change whose reply was lost is sent again (through the
    /// sentinels, to a new primary) for at most `milliseconds`; one still unsent
    /// is in the outage journal (6); one the replicas did not confirm is 12.
    func finishCommand(withinMilliseconds milliseconds: Int) -> ExitStatus?
}

extension SharedStore {
    /// `finishCommand` with the time a command waits for a primary that moved:
    /// as long as a run's end waits.
    public func finishCommand() -> ExitStatus? { finishCommand(withinMilliseconds: 2_000) }
}

extension SharedStore {
    public func modify<Result>(id: String, _ change: (inout StoredCountdown?) -> Result) throws -> Result? {
        guard exists else { return nil }
        return try persistence.modify(id: id, change)
    }
}

/// The SQLite store of `--state-dir`.
public final class SQLiteSharedStore: SharedStore {
    public let store: SQLiteCountdownStore
    private var feed: SQLiteChangeWatcher?

    public init(_ store: SQLiteCountdownStore) { self.store = store }

    public var location: String { store.path }
    public var persistence: CountdownStoreBackend { store }
    public var exists: Bool { store.fileExists }
    public func now() throws -> StoreInstant { storeNow() }

    public func changeFeed(timers: WakeUpTimerSource) throws -> CountdownChangeFeed {
        if let feed { return feed }
        let made = try SQLiteChangeWatcher(store: store, recheck: try timers.makeTimer())
        feed = made
        return made
    }

    public var bootID: String? { BootID.current }
    public var externalChangeTolerance: Nanoseconds? { nil }
    /// Every change is written at once: nothing is held back.
    public func chargeHeldChanges(to charge: @escaping (Int) -> Bool) {}
    public func finishRun(withinMilliseconds milliseconds: Int) -> Bool { true }
    public func finishCommand(withinMilliseconds milliseconds: Int) -> ExitStatus? { nil }
}

/// A Redis server (`--store redis://...`), shared across machines.
public final class RedisSharedStore: SharedStore {
    public let store: RedisCountdownStore
    private var feed: RedisChangeFeed?

    public init(_ store: RedisCountdownStore) {
        self.store = store
        store.notice = { StandardError.line($0) }
    }

    public var location: String { store.url.description }
    public var persistence: CountdownStoreBackend { store }
    public var exists: Bool { true }

    /// Read on the local clocks; the store turns its server-clock instants into
    /// these terms, so no boot id applies.
    public func now() throws -> StoreInstant {
        try store.connect()
        return StoreInstant.now(bootID: nil)
    }

    public func changeFeed(timers: WakeUpTimerSource) throws -> CountdownChangeFeed {
        if let feed { return feed }
        let made = RedisChangeFeed(store: store, timer: try timers.makeTimer())
        feed = made
        return made
    }

    /// Redis keeps instants on its server's clock, for many machines: no boot id.
    public var bootID: String? { nil }
    /// Instants from Redis pass through a measured clock offset: a re-measurement
    /// (a few ms on a busy network) is not a change made elsewhere.
    public var externalChangeTolerance: Nanoseconds? { 20_000_000 }

    /// Changes queued for an unreachable server count against --memory-limit.
    public func chargeHeldChanges(to charge: @escaping (Int) -> Bool) {
        store.chargeMemory = charge
    }

    public func finishRun(withinMilliseconds milliseconds: Int) -> Bool {
        var sent = true
        if !store.flush(withinMilliseconds: milliseconds) {
            let changes = store.pendingCount, countdowns = store.pendingCountdowns
            let what = "\(changes) change\(changes == 1 ? "" : "s") to \(countdowns) countdown\(countdowns == 1 ? "" : "s")"
            if store.journal != nil {
                StandardError.line("cdscript: \(what) could not reach \(location) before the run ended; they are kept in \(store.pendingLocation) and sent by the next cdscript command that reaches it")
            } else {
                StandardError.line("cdscript: \(what) could not reach \(location) before the run ended; they are lost")
            }
            sent = false
        }
        if store.unconfirmedCount > 1 {
            // The first was said when it happened.
            StandardError.line("cdscript: \(store.unconfirmedCount) changes made in this run are on \(location), but fewer replicas than asked for (--redis-wait) confirmed them in time")
        }
        // A journal set aside holds changes no command sends: said where it was found.
        return sent && store.lostIDs.isEmpty && store.journalsSetAside.isEmpty
    }

    public func finishCommand(withinMilliseconds milliseconds: Int) -> ExitStatus? {
        // A primary that died under the change is replaced by the sentinels
        // within seconds: asked again every 0.1 s until the time is up.
        let clock = BootClock()
        let deadline = clock.bootNow() + Nanoseconds(milliseconds) * 1_000_000
        var sent = store.flush(withinMilliseconds: milliseconds)
        while !sent, clock.bootNow() < deadline {
            usleep(100_000)
            let left = Int((deadline - clock.bootNow()) / 1_000_000)
            sent = store.flush(withinMilliseconds: max(1, left))
        }
        if !sent {
            let changes = store.pendingCount
            let what = "\(changes) change\(changes == 1 ? "" : "s")"
            if store.journal != nil {
                StandardError.line("cdscript: \(what) did not reach \(location) (its reply was lost, and no primary took it again within \(milliseconds) ms); kept in \(store.pendingLocation) and sent once by the next cdscript command that reaches it")
            } else {
                StandardError.line("cdscript: \(what) did not reach \(location) (its reply was lost, and no primary took it again within \(milliseconds) ms); it is lost")
            }
            return .storeError
        }
        // Said by the store when it happened (docs/stores.md, "Waiting for replicas").
        return store.unconfirmedCount > 0 ? .unconfirmedByReplicas : nil
    }
}
