import ArgumentParser
import RedisStore

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
public struct RedisTLSOptions: ParsableArguments {
    public init() {}

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
    public var settings: RedisTLSSettings {
        RedisTLSSettings(caFile: caFile, caDirectory: caDirectory, certificateFile: certificateFile, keyFile: keyFile,
                         serverName: serverName, insecure: insecure ? true : nil)
    }
}
