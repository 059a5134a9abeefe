import ArgumentParser
import CountdownCore
import SQLiteStore
import RedisStore
import StoreViews

/// `--state-dir`, shared by run, list, cancel and clear.
public struct StoreOptions: ParsableArguments {
    public init() {}

    @Option(name: .customLong("state-dir"), help: ArgumentHelp(
        "Where persistent countdowns are kept (default: $CDSCRIPT_STATE_DIR, else $XDG_STATE_HOME/cdscript, else ~/.local/state/cdscript).",
        valueName: "DIR"), completion: .directory)
    public var stateDir: String?

    @Option(name: .customLong("store"), help: ArgumentHelp(
        "Keep persistent countdowns in Redis, shared across machines: redis://[[USER]:PASSWORD@]HOST[:PORT][/DB], rediss://… over TLS, redis-sentinel://HOST[:PORT][,…]/MASTERNAME[/DB], or rediss-sentinel://… through Sentinel over TLS (default: $CDSCRIPT_STORE, else the SQLite store of --state-dir).",
        valueName: "URL"))
    public var store: String?

    // The --redis-* options are declared here, not as nested option groups: in a
    // debug build ArgumentParser validates a nested group once per validator at
    // each level above it, which made every command of the tests' binary spend
    // 80-140 ms more on parsing (list 127 -> 45 ms of CPU, run 210 -> 70 ms).
    @Option(name: .customLong(RedisTLSHelp.caFileName), help: RedisTLSHelp.caFile, completion: .file())
    var redisCAFile: String?

    @Option(name: .customLong(RedisTLSHelp.caDirectoryName), help: RedisTLSHelp.caDirectory, completion: .directory)
    var redisCADirectory: String?

    @Option(name: .customLong(RedisTLSHelp.certificateFileName), help: RedisTLSHelp.certificateFile, completion: .file())
    var redisCertificateFile: String?

    @Option(name: .customLong(RedisTLSHelp.keyFileName), help: RedisTLSHelp.keyFile, completion: .file())
    var redisKeyFile: String?

    @Option(name: .customLong(RedisTLSHelp.serverNameName), help: RedisTLSHelp.serverName)
    var redisServerName: String?

    @Flag(name: .customLong(RedisTLSHelp.insecureName), help: RedisTLSHelp.insecure)
    var redisInsecure = false

    @Option(name: .customLong("redis-wait"), help: ArgumentHelp(
        "Redis: a change counts as done once N replicas hold it (WAIT; also $CDSCRIPT_REDIS_WAIT, ?wait=N). Fewer in time: the change is made, said, exit 12.",
        valueName: "N"))
    var redisWait: String?

    @Option(name: .customLong("redis-wait-timeout"), help: ArgumentHelp(
        "Redis: the longest a change waits for the replicas of --redis-wait: 500ms, 2s (default 1s; also $CDSCRIPT_REDIS_WAIT_TIMEOUT, ?wait-timeout=…).",
        valueName: "DURATION"))
    var redisWaitTimeout: String?

    /// What the --redis-* TLS options say (nil where they say nothing).
    public var tlsSettings: RedisTLSSettings {
        RedisTLSSettings(caFile: redisCAFile, caDirectory: redisCADirectory, certificateFile: redisCertificateFile, keyFile: redisKeyFile,
                         serverName: redisServerName, insecure: redisInsecure ? true : nil)
    }

    /// What --redis-wait and --redis-wait-timeout say (`StoreLocation.replicaWait`); a value
    /// that does not read is bad usage (exit 64).
    public func waitSettings() throws -> RedisReplicaWait {
        try Self.waitSettings(replicas: redisWait, timeout: redisWaitTimeout)
    }

    /// The same from plain values (nil: the option was not given).
    static func waitSettings(replicas: String?, timeout: String?) throws -> RedisReplicaWait {
        try exitingAsCommand { try StoreLocation.replicaWait(replicas: replicas, timeout: timeout) }
    }

    /// The SQLite store of --state-dir; nothing is opened or created until it is used.
    public func makeStore() -> SQLiteCountdownStore { Self.makeStore(stateDir: stateDir) }

    public static func makeStore(stateDir: String?) -> SQLiteCountdownStore { StoreLocation(stateDir: stateDir).sqliteStore() }

    /// The store chosen by `--store` / `CDSCRIPT_STORE`, else the SQLite one.
    /// `quiet`: no warning about `--redis-insecure` (shell completion).
    public func openShared(quiet: Bool = false) throws -> SharedStore {
        try Self.openShared(stateDir: stateDir, store: store, tls: tlsSettings, wait: try waitSettings(), quiet: quiet)
    }

    /// The same from plain values. A Redis outage journal set aside makes the
    /// command exit 6 (`UnreadableJournal`).
    public static func openShared(stateDir: String?, store: String?, tls: RedisTLSSettings = RedisTLSSettings(),
                           wait: RedisReplicaWait = RedisReplicaWait(), quiet: Bool = false) throws -> SharedStore {
        try exitingAsCommand {
            try StoreLocation(stateDir: stateDir, store: store, tls: tls, wait: wait)
                .open(quiet: quiet, journalSetAside: { UnreadableJournal.found = true })
        }
    }

    /// The store URL `text` with its TLS and replica settings (`StoreLocation.redisURL`);
    /// a bad URL is bad usage (exit 64).
    public static func redisURL(_ text: String, tls: RedisTLSSettings, wait: RedisReplicaWait = RedisReplicaWait(),
                         quiet: Bool = false, prefix: String = "cdscript") throws -> RedisURL {
        try exitingAsCommand { try StoreLocation.redisURL(text, tls: tls, wait: wait, quiet: quiet, prefix: prefix) }
    }
}

