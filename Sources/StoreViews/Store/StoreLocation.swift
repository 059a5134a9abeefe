import CommandEnding
import CountdownCore
import SystemIdentity
import SQLiteStore
import RedisStore
import TerminalView

/// Which store a command works on, in plain values: the SQLite file of a state
/// folder (the default) or a Redis server named by URL, with the Redis TLS and
/// replica settings. The command line fills one from `--state-dir`, `--store`
/// and the `--redis-*` options (`StoreOptions`); nothing is opened until `open`.
public struct StoreLocation: Equatable, Sendable {
    /// `--state-dir`: nil for `$CDSCRIPT_STATE_DIR`, else `$XDG_STATE_HOME/cdscript`, else `~/.local/state/cdscript`.
    public var stateDir: String?
    /// `--store`: a Redis URL; nil for `$CDSCRIPT_STORE`, else the SQLite store.
    public var store: String?
    /// The --redis-* TLS options (nil fields where they say nothing).
    public var tls: RedisTLSSettings
    /// --redis-wait and --redis-wait-timeout.
    public var wait: RedisReplicaWait

    public init(stateDir: String? = nil, store: String? = nil, tls: RedisTLSSettings = RedisTLSSettings(),
                wait: RedisReplicaWait = RedisReplicaWait()) {
        self.stateDir = stateDir
        self.store = store
        self.tls = tls
        self.wait = wait
    }

    /// The SQLite store of the state folder; nothing is opened or created until it is used.
    public func sqliteStore() -> SQLiteCountdownStore {
        SQLiteCountdownStore(directory: StateDirectory.resolve(option: stateDir))
    }

    /// The Redis URL chosen by `store`, else `CDSCRIPT_STORE`; nil for the SQLite store.
    public var chosenRedisURL: String? {
        let environment = ProcessEnvironment.value("CDSCRIPT_STORE").flatMap { $0.isEmpty ? nil : $0 }
        // --state-dir given explicitly wins over the environment's Redis URL.
        return store ?? (stateDir == nil ? environment : nil)
    }

    /// The store chosen: Redis when a URL is, else SQLite. `quiet`: no warning
    /// about `--redis-insecure` (shell completion). `journalSetAside` is called
    /// when a Redis outage journal that cannot be read is set aside. A bad URL
    /// is said on stderr and throws `CommandExit(.usage)`.
    public func open(quiet: Bool = false, journalSetAside: @escaping () -> Void = {}) throws(CommandExit) -> SharedStore {
        guard let text = chosenRedisURL else { return SQLiteSharedStore(sqliteStore()) }
        let url = try Self.redisURL(text, tls: tls, wait: wait, quiet: quiet)
        // Changes queued while the server is out of reach are kept in the state
        // folder until it has them (issue 37): a run that ends first loses none.
        let journal = PendingJournal(directory: StateDirectory.resolve(option: stateDir))
        let store = RedisCountdownStore(url: url, journal: journal)
        store.onJournalSetAside = journalSetAside
        return RedisSharedStore(store)
    }

    /// The store URL `text` with its TLS and replica settings: `tls` and `wait`
    /// (the --redis-* options) over the URL's query over the CDSCRIPT_REDIS_*
    /// variables. A bad URL is bad usage (said on stderr, `CommandExit(.usage)`);
    /// a store whose certificate is not verified says so, on every start, unless `quiet`.
    public static func redisURL(_ text: String, tls: RedisTLSSettings, wait: RedisReplicaWait = RedisReplicaWait(),
                                quiet: Bool = false, prefix: String = "cdscript") throws(CommandExit) -> RedisURL {
        do {
            let url = try RedisURL(text).withTLS(options: tls, environment: .fromEnvironment(ProcessEnvironment.value))
                .withWait(options: wait, environment: try .fromEnvironment(ProcessEnvironment.value))
            if !quiet, url.tls?.skipsVerification == true {
                StandardError.line("\(prefix): warning: --redis-insecure: the certificate of \(url) is not verified; anyone on the way can read and change the countdowns")
            }
            return url
        } catch {
            StandardError.line("\(prefix): --store: \(error)")
            throw CommandExit(.usage)
        }
    }
}

extension StoreLocation {
    /// What --redis-wait and --redis-wait-timeout say (Redis's WAIT: how many
    /// replicas hold each change before it counts as done; also CDSCRIPT_REDIS_WAIT,
    /// CDSCRIPT_REDIS_WAIT_TIMEOUT and the URL's `?wait=N&wait-timeout=…`), nil
    /// where they say nothing; a value that does not read is said on stderr and
    /// is bad usage (`CommandExit(.usage)`).
    public static func replicaWait(replicas: String?, timeout: String?) throws(CommandExit) -> RedisReplicaWait {
        var wait = RedisReplicaWait()
        if let replicas {
            guard let n = RedisReplicaWait.replicas(replicas) else {
                StandardError.line("cdscript: --redis-wait \(replicas): expected a whole number of replicas (0 waits for none)")
                throw CommandExit(.usage)
            }
            wait.replicas = n
        }
        if let timeout {
            guard let ms = RedisReplicaWait.timeout(timeout) else {
                StandardError.line("cdscript: --redis-wait-timeout \(timeout): expected a time above 0 and at most 1 hour: 500ms, 2s or milliseconds (500)")
                throw CommandExit(.usage)
            }
            wait.timeoutMilliseconds = ms
        }
        return wait
    }
}

/// The instant every stored countdown on this machine is read at.
public func storeNow() -> StoreInstant {
    StoreInstant.now(bootID: BootID.current)
}
