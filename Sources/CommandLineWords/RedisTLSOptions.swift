import ArgumentParser
import RedisStore

/// How each --redis-* TLS option is named and explained (as redis-cli's --tls
/// options; also CDSCRIPT_REDIS_* and the URL's query), written once for the two
/// places that declare them: `StoreOptions` and `test`'s `RedisTLSOptions`.
public enum RedisTLSHelp {
    public static let caFileName = "redis-cacert"
    public static let caFile = ArgumentHelp(
        "rediss://: trust the CA certificates in FILE (PEM) instead of the system's (also $CDSCRIPT_REDIS_CACERT, ?cacert=FILE).",
        valueName: "FILE")
    public static let caDirectoryName = "redis-cacert-dir"
    public static let caDirectory = ArgumentHelp(
        "rediss://: trust the hashed CA certificates in DIR instead of the system's (also $CDSCRIPT_REDIS_CACERT_DIR, ?cacert-dir=DIR).",
        valueName: "DIR")
    public static let certificateFileName = "redis-cert"
    public static let certificateFile = ArgumentHelp(
        "rediss://: client certificate (PEM) for mutual TLS, with --redis-key (also $CDSCRIPT_REDIS_CERT, ?cert=FILE).",
        valueName: "FILE")
    public static let keyFileName = "redis-key"
    public static let keyFile = ArgumentHelp(
        "rediss://: the client certificate's private key (PEM) (also $CDSCRIPT_REDIS_KEY, ?key=FILE).",
        valueName: "FILE")
    public static let serverNameName = "redis-sni"
    public static let serverName = ArgumentHelp(
        "rediss://: the server name sent (SNI) and checked against its certificate, instead of the URL's host (also $CDSCRIPT_REDIS_SNI, ?sni=NAME).",
        valueName: "NAME")
    public static let insecureName = "redis-insecure"
    public static let insecure = ArgumentHelp(
        "rediss://: do not verify the server's certificate at all (warned on every start; also $CDSCRIPT_REDIS_INSECURE=1, ?insecure).")
}

/// `cdscript test`'s --redis-* TLS options (its --store is a test store of its own).
public struct RedisTLSOptions: ParsableArguments {
    public init() {}

    @Option(name: .customLong(RedisTLSHelp.caFileName), help: RedisTLSHelp.caFile, completion: .file())
    public var caFile: String?

    @Option(name: .customLong(RedisTLSHelp.caDirectoryName), help: RedisTLSHelp.caDirectory, completion: .directory)
    public var caDirectory: String?

    @Option(name: .customLong(RedisTLSHelp.certificateFileName), help: RedisTLSHelp.certificateFile, completion: .file())
    public var certificateFile: String?

    @Option(name: .customLong(RedisTLSHelp.keyFileName), help: RedisTLSHelp.keyFile, completion: .file())
    public var keyFile: String?

    @Option(name: .customLong(RedisTLSHelp.serverNameName), help: RedisTLSHelp.serverName)
    public var serverName: String?

    @Flag(name: .customLong(RedisTLSHelp.insecureName), help: RedisTLSHelp.insecure)
    public var insecure = false

    /// What the options say (nil where they say nothing).
    public var settings: RedisTLSSettings {
        RedisTLSSettings(caFile: caFile, caDirectory: caDirectory, certificateFile: certificateFile, keyFile: keyFile,
                         serverName: serverName, insecure: insecure ? true : nil)
    }
}
