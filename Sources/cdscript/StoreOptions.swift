import ArgumentParser
import CountdownCore
import SystemIdentity
import SQLiteStore
import FoundationEssentials
import RedisStore

/// `--state-dir`, shared by run, list, cancel and clear.
struct StoreOptions: ParsableArguments {
    @Option(name: .customLong("state-dir"), help: ArgumentHelp(
        "Where persistent countdowns are kept (default: $CDSCRIPT_STATE_DIR, else $XDG_STATE_HOME/cdscript, else ~/.local/state/cdscript).",
        valueName: "DIR"), completion: .directory)
    var stateDir: String?

    @Option(name: .customLong("store"), help: ArgumentHelp(
        "Keep persistent countdowns in Redis, shared across machines: redis://[[USER]:PASSWORD@]HOST[:PORT][/DB], rediss://… over TLS, redis-sentinel://HOST[:PORT][,…]/MASTERNAME[/DB], or rediss-sentinel://… through Sentinel over TLS (default: $CDSCRIPT_STORE, else the SQLite store of --state-dir).",
        valueName: "URL"))
    var store: String?

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
    var tlsSettings: RedisTLSSettings {
        RedisTLSSettings(caFile: redisCAFile, caDirectory: redisCADirectory, certificateFile: redisCertificateFile, keyFile: redisKeyFile,
                         serverName: redisServerName, insecure: redisInsecure ? true : nil)
    }

    /// The store; nothing is opened or created until it is used.
    func makeStore() -> SQLiteCountdownStore { Self.makeStore(stateDir: stateDir) }

    static func makeStore(stateDir: String?) -> SQLiteCountdownStore {
        SQLiteCountdownStore(directory: StateDirectory.resolve(option: stateDir))
    }

    /// The Redis URL chosen by `--store`, else `CDSCRIPT_STORE`; nil for the SQLite store.
    var chosenRedisURL: String? { Self.chosenRedisURL(stateDir: stateDir, store: store) }

    static func chosenRedisURL(stateDir: String?, store: String?) -> String? {
        let environment = ProcessEnvironment.value("CDSCRIPT_STORE").flatMap { $0.isEmpty ? nil : $0 }
        // --state-dir given explicitly wins over the environment's Redis URL.
        return store ?? (stateDir == nil ? environment : nil)
    }

    /// The store chosen by `--store` / `CDSCRIPT_STORE`, else the SQLite one.
    /// `quiet`: no warning about `--redis-insecure` (shell completion).
    func openShared(quiet: Bool = false) throws -> SharedStore {
        try Self.openShared(stateDir: stateDir, store: store, tls: tlsSettings, wait: try waitSettings(), quiet: quiet)
    }

    /// The same from plain values, for a command read without ArgumentParser
    /// (StatusRequest+PlainWords.swift), which must not touch this type's wrappers.
    static func openShared(stateDir: String?, store: String?, tls: RedisTLSSettings = RedisTLSSettings(),
                           wait: RedisReplicaWait = RedisReplicaWait(), quiet: Bool = false) throws -> SharedStore {
        guard let text = chosenRedisURL(stateDir: stateDir, store: store) else {
            return SQLiteSharedStore(makeStore(stateDir: stateDir))
        }
        let url = try redisURL(text, tls: tls, wait: wait, quiet: quiet)
        // Changes queued while the server is out of reach are kept in the state
        // folder until it has them (issue 37): a run that ends first loses none.
        let journal = PendingJournal(directory: StateDirectory.resolve(option: stateDir))
        return RedisSharedStore(RedisCountdownStore(url: url, journal: journal))
    }

    /// The store URL `text` with its TLS and replica settings: `tls` and `wait`
    /// (the --redis-* options) over the URL's query over the CDSCRIPT_REDIS_*
    /// variables. A bad URL is bad usage (exit 64); a store whose certificate is
    /// not verified says so, on every start, unless `quiet`.
    static func redisURL(_ text: String, tls: RedisTLSSettings, wait: RedisReplicaWait = RedisReplicaWait(),
                         quiet: Bool = false, prefix: String = "cdscript") throws -> RedisURL {
        do {
            let url = try RedisURL(text).withTLS(options: tls, environment: .fromEnvironment(ProcessEnvironment.value))
                .withWait(options: wait, environment: try .fromEnvironment(ProcessEnvironment.value))
            if !quiet, url.tls?.skipsVerification == true {
                printError("\(prefix): warning: --redis-insecure: the certificate of \(url) is not verified; anyone on the way can read and change the countdowns")
            }
            return url
        } catch {
            printError("\(prefix): --store: \(error)")
            throw ExitCode(ExitStatus.usage.rawValue)
        }
    }
}

/// How each --redis-* TLS option is named and explained (as redis-cli's --tls
/// options; also CDSCRIPT_REDIS_* and the URL's query), written once for the two
/// places that declare them: `StoreOptions` and `test`'s `RedisTLSOptions`.
enum RedisTLSHelp {
    static let caFileName = "redis-cacert"
    static let caFile = ArgumentHelp(
        "rediss://: trust the CA certificates in FILE (PEM) instead of the system's (also $CDSCRIPT_REDIS_CACERT, ?cacert=FILE).",
        valueName: "FILE")
    static let caDirectoryName = "redis-cacert-dir"
    static let caDirectory = ArgumentHelp(
        "rediss://: trust the hashed CA certificates in DIR instead of the system's (also $CDSCRIPT_REDIS_CACERT_DIR, ?cacert-dir=DIR).",
        valueName: "DIR")
    static let certificateFileName = "redis-cert"
    static let certificateFile = ArgumentHelp(
        "rediss://: client certificate (PEM) for mutual TLS, with --redis-key (also $CDSCRIPT_REDIS_CERT, ?cert=FILE).",
        valueName: "FILE")
    static let keyFileName = "redis-key"
    static let keyFile = ArgumentHelp(
        "rediss://: the client certificate's private key (PEM) (also $CDSCRIPT_REDIS_KEY, ?key=FILE).",
        valueName: "FILE")
    static let serverNameName = "redis-sni"
    static let serverName = ArgumentHelp(
        "rediss://: the server name sent (SNI) and checked against its certificate, instead of the URL's host (also $CDSCRIPT_REDIS_SNI, ?sni=NAME).",
        valueName: "NAME")
    static let insecureName = "redis-insecure"
    static let insecure = ArgumentHelp(
        "rediss://: do not verify the server's certificate at all (warned on every start; also $CDSCRIPT_REDIS_INSECURE=1, ?insecure).")
}

/// `cdscript test`'s --redis-* TLS options (its --store is a test store of its own).
struct RedisTLSOptions: ParsableArguments {
    @Option(name: .customLong(RedisTLSHelp.caFileName), help: RedisTLSHelp.caFile, completion: .file())
    var caFile: String?

    @Option(name: .customLong(RedisTLSHelp.caDirectoryName), help: RedisTLSHelp.caDirectory, completion: .directory)
    var caDirectory: String?

    @Option(name: .customLong(RedisTLSHelp.certificateFileName), help: RedisTLSHelp.certificateFile, completion: .file())
    var certificateFile: String?

    @Option(name: .customLong(RedisTLSHelp.keyFileName), help: RedisTLSHelp.keyFile, completion: .file())
    var keyFile: String?

    @Option(name: .customLong(RedisTLSHelp.serverNameName), help: RedisTLSHelp.serverName)
    var serverName: String?

    @Flag(name: .customLong(RedisTLSHelp.insecureName), help: RedisTLSHelp.insecure)
    var insecure = false

    /// What the options say (nil where they say nothing).
    var settings: RedisTLSSettings {
        RedisTLSSettings(caFile: caFile, caDirectory: caDirectory, certificateFile: certificateFile, keyFile: keyFile,
                         serverName: serverName, insecure: insecure ? true : nil)
    }
}

extension StoreOptions {
    /// What --redis-wait and --redis-wait-timeout say (Redis's WAIT: how many
    /// replicas hold each change before it counts as done; also CDSCRIPT_REDIS_WAIT,
    /// CDSCRIPT_REDIS_WAIT_TIMEOUT and the URL's `?wait=N&wait-timeout=…`), nil
    /// where they say nothing; a value that does not read is bad usage (exit 64).
    func waitSettings() throws -> RedisReplicaWait {
        var wait = RedisReplicaWait()
        if let replicas = redisWait {
            guard let n = RedisReplicaWait.replicas(replicas) else {
                printError("cdscript: --redis-wait \(replicas): expected a whole number of replicas (0 waits for none)")
                throw ExitCode(ExitStatus.usage.rawValue)
            }
            wait.replicas = n
        }
        if let timeout = redisWaitTimeout {
            guard let ms = RedisReplicaWait.timeout(timeout) else {
                printError("cdscript: --redis-wait-timeout \(timeout): expected a time above 0 and at most 1 hour: 500ms, 2s or milliseconds (500)")
                throw ExitCode(ExitStatus.usage.rawValue)
            }
            wait.timeoutMilliseconds = ms
        }
        return wait
    }
}

/// The instant every stored countdown is read at.
func storeNow() -> StoreInstant {
    StoreInstant.now(bootID: BootID.current)
}

/// Reports a store error and exits with its code.
func failOnStore(_ error: any Error) -> ExitCode {
    printError("cdscript: \(error)")
    return ExitCode(ExitStatus.storeError.rawValue)
}
