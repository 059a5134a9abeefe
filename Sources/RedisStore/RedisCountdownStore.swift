#if canImport(Glibc)
import Glibc
#endif
import CLinux
import CountdownCore
import SystemIdentity
import FoundationEssentials

/// Countdowns kept in Redis, shared by every process on every machine that uses
/// the same server and database.
///
/// - Every change is one script run by the server (`EVALSHA`, see `RedisScripts`):
///   it compares the stored value with the one the change was computed from,
///   writes the new one and publishes the id on the store's channel, atomically.
///   When another process got there first, the change is computed again from
///   what it wrote and retried, so concurrent appends from many machines add up.
/// - Instants are kept on the server's clock (`ServerClock`); this adapter turns
///   them into the local wall clock's terms and back, so the Lua host works as
///   with SQLite and machines whose clocks disagree show the same remaining time.
/// - Unreachable when first used: every operation fails (the run goes on in
///   memory and exits 6). Lost later: operations keep working on what this
///   process last saw, changes are queued (merged per countdown, `PendingChanges`),
///   and once `reconnect()` (driven by the change feed's backoff timer) succeeds,
///   `replayPending` sends them in slices between passes of the run loop.
/// - Idempotence without a key per change: each process's writes carry a sequence
///   number, and the server keeps the last one applied per process
///   (`cdscript:writer:<uuid>`, expiring 24 hours after its last change), so a
///   change whose reply was lost is applied at most once when it is sent again.
/// - A server that comes back without its data (restarted without persistence,
///   flushed) is told apart from a cancel by `cdscript:epoch`, a random value set
///   once: when it changed, the countdowns this process used are reported lost
///   (`lostIDs`, exit 6 for a run) and written back where the server has none.
///
/// This file holds its state; the rest is in extensions: `+Persistence` (what the
/// host asks of a store), `+Writing` (the script and the queue), `+Connection`
/// (connecting, going offline, a server that lost its data), `+Replay` and
/// `+Held` (what it last saw: its copy, or the countdowns the process runs).
public final class RedisCountdownStore: CountdownStoreBackend {
    public let url: RedisURL
    let clock: ServerClock
    /// Milliseconds a command may take before the server counts as lost.
    public var timeoutMilliseconds = 1_000
    /// Shorter, for attempts to reconnect from the run loop.
    public var reconnectTimeoutMilliseconds = 300
    var connection: RedisConnection?
    var everConnected = false
    var scriptSHA: String?
    /// What this process last saw of each countdown, server terms; the answer
    /// while offline. Marked: the countdowns this process loaded, saved or
    /// changed itself (not only listed), what it writes back when the server
    /// lost its data. Compact (`StoredCountdownTable`): a process holding all
    /// of a million countdowns keeps a million of these.
    var cache = StoredCountdownTable()
    /// The process's countdowns (its Lua host): the copy keeps none of those it
    /// runs, and asks it for them instead (`+Held`).
    public weak var holder: (any HeldCountdowns)?
    /// Changes not on the server yet, in order.
    var pending = PendingChanges()
    /// The queue on local disk; nil keeps it in memory only (tests, or a state
    /// folder that cannot be written).
    public var journal: PendingJournal?
    /// Journals found unreadable and renamed aside (their new paths; the path
    /// itself when it could not be renamed): the command exits 6.
    public internal(set) var journalsSetAside: [String] = []
    /// Called when a journal is found unreadable (and said on `notice`).
    public var onJournalSetAside: () -> Void = {}
    /// Who owns this store's rows in the journal, and how to tell whether the
    /// owner of other rows still runs (a test stands in for other processes).
    var journalOwner = ProcessIdentity.current
    var journalOwnerIsRunning: (String) -> Bool = ProcessIdentity.isRunning
    /// Changes adopted from processes that ended and sent since (for the notice).
    var adoptedSent = 0
    /// This store's writer id and the sequence number of its last write.
    let writerKey = "cdscript:writer:" + UUID().uuidString
    var sequence = 0
    /// The server's `cdscript:epoch` as this process first saw it.
    var epoch: String?
    /// The epoch each end claim this process won was made under, by id: a claim
    /// found gone later is told apart as lost with the server's data, or removed.
    var claimEpochs: [String: String] = [:]
    /// Countdowns the server lost (it came back without them), in the order found.
    public internal(set) var lostIDs: [String] = []
    /// Changes the primary holds that fewer replicas than `url.wait` asks for
    /// confirmed in time (`+Replicas`); the first of them, as said on `notice`.
    public internal(set) var unconfirmedCount = 0
    public internal(set) var firstUnconfirmed: UnconfirmedChange?
    /// Changes sent since the last reconnection (for the notice once all are sent).
    var replayedSinceReconnect = 0
    /// Steps of replays done, for `ReplayKillHook` (a test hook).
    var replaySteps = 0
    /// Counts the memory queued changes take against the run's limit (negative
    /// gives it back); false refuses. A run wires it to `--memory-limit`.
    public var chargeMemory: (Int) -> Bool = { _ in true }
    /// Called when the connection is lost (the feed arms its reconnect timer).
    var onLost: () -> Void = {}
    /// Notices for the user (lost, reconnected); stderr in the command line.
    public var notice: (String) -> Void = { _ in }

    static let hashKey = "cdscript:countdowns"
    /// Ids per `HMGET` of `loadEach`.
    static let loadSlice = 1_000
    /// Records read from the server so far (`HGET`, `HMGET`): what tests bound the
    /// work of following the store by.
    public internal(set) var recordsRead = 0
    /// The most elements (fields and values) in one reply to a slice of a read of the
    /// whole hash or of the keys (`HSCAN`, `SCAN`, a listing's `HMGET`): what tests bound a slice by.
    public internal(set) var largestSlice = 0
    /// The hash as read ahead for a run of loads (`+ReadAhead`); nil: none.
    var readAheadCopy: ReadAheadCopy?
    /// Records in the copy not handed out yet, and whether a copy was used up since the feed last drained.
    var readAheadLeft = 0
    var readAheadSpent = false
    /// Entries of copies still held when a drain let them go: what a test bounds.
    public internal(set) var readAheadDroppedAtDrain = 0
    /// Loads since a change feed last drained.
    var loadsSinceDrain = 0
    /// True while a change feed is subscribed to this store's channel.
    var feedSubscribed = false
    /// How many times one change is computed again because another process wrote
    /// the same countdown in between, before the store gives up on it. Each
    /// conflict means some writer succeeded, so the store as a whole moves on;
    /// a thousand in a row is a fight between writers, and waiting on it for ever
    /// would hang the run.
    static let maximumAttempts = 1000
    /// `maximumAttempts` for this store: a test lowers it to see a change give up.
    var attemptsPerChange = RedisCountdownStore.maximumAttempts
    var channel: String { "cdscript:changes:\(url.database)" }

    public init(url: RedisURL, clock: TimeSource = BootClock(), journal: PendingJournal? = nil) {
        self.url = url
        self.journal = journal
        // Should the watchdog have to end a run this store holds up, it says where
        // the changes are (one string per process, never freed: the handler reads it).
        let kept = journal.map { "kept in \($0.path)" } ?? "lost"
        cdl_set_store_wait_message(strdup("cdscript: \(url) did not answer in time after the run was ended; changes not sent to it are \(kept)\n"))
        self.clock = ServerClock(local: clock)
        // hiredis writes to its sockets with write(): a server that went away must
        // be an error to handle (EPIPE), not a signal that ends the process. A run
        // already catches SIGPIPE (a handler that does nothing, which children do not
        // inherit); only a process that left it at its default ignores it here.
        var current = sigaction()
        if sigaction(SIGPIPE, nil, &current) == 0, current.__sigaction_handler.sa_handler == nil {
            signal(SIGPIPE, SIG_IGN)
        }
    }

    /// The server went away (the subscriber connection saw it): the command
    /// connection is dead too, so go offline now rather than on the next write.
    func markLost(_ reason: String) {
        guard connection != nil else { return }
        wentOffline(RedisError(connectionLost: true, message: reason))
    }

    /// True while changes wait for the server.
    public var isOffline: Bool { everConnected && connection == nil }
    /// Changes not yet on the server (counting merged ones).
    public var pendingCount: Int { pending.changeCount }
    /// Countdowns with changes not yet on the server.
    public var pendingCountdowns: Int { pending.entryCount }
    /// Answers come from what this process last saw, and changes are queued:
    /// offline, and also while queued changes are still being sent (the server
    /// does not hold them yet, and a change must follow those made before it).
    var answersFromCache: Bool { connection == nil || !pending.isEmpty }

    /// Connects now (the commands do, to fail early with exit 6).
    public func connect() throws(RedisError) {
        _ = try live(timeout: timeoutMilliseconds)
    }
}
