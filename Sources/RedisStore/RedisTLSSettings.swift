/// How a `rediss://` store is reached over TLS. Each setting comes from the URL's
/// query (`?cacert=FILE`), a `--redis-*` option or a `CDSCRIPT_REDIS_*` variable;
/// nil means "not said here", so that sources can be layered (`over`).
///
/// With nothing said, the server's certificate and name are verified against the
/// system's CA store.
public struct RedisTLSSettings: Equatable, Sendable {
    /// PEM file of CA certificates to trust instead of the system's.
    public var caFile: String?
    /// Directory of hashed CA certificates (`openssl rehash`) to trust instead of the system's.
    public var caDirectory: String?
    /// Client certificate (PEM, chain allowed) for servers that ask for one (mutual TLS).
    public var certificateFile: String?
    /// The client certificate's private key (PEM).
    public var keyFile: String?
    /// The name sent as SNI and checked against the server's certificate, instead of the URL's host.
    public var serverName: String?
    /// True: the certificate is not verified at all (said on every start).
    public var insecure: Bool?

    public init(caFile: String? = nil, caDirectory: String? = nil, certificateFile: String? = nil,
                keyFile: String? = nil, serverName: String? = nil, insecure: Bool? = nil) {
        self.caFile = caFile
        self.caDirectory = caDirectory
        self.certificateFile = certificateFile
        self.keyFile = keyFile
        self.serverName = serverName
        self.insecure = insecure
    }

    /// True when no setting is given.
    public var isEmpty: Bool { self == RedisTLSSettings() }

    /// Each setting given here, else the one of `fallback`.
    public func over(_ fallback: RedisTLSSettings) -> RedisTLSSettings {
        RedisTLSSettings(caFile: caFile ?? fallback.caFile,
                         caDirectory: caDirectory ?? fallback.caDirectory,
                         certificateFile: certificateFile ?? fallback.certificateFile,
                         keyFile: keyFile ?? fallback.keyFile,
                         serverName: serverName ?? fallback.serverName,
                         insecure: insecure ?? fallback.insecure)
    }

    /// Whether verification is off.
    public var skipsVerification: Bool { insecure ?? false }

    /// The query keys of a store URL that take a value.
    static let queryKeys = ["cacert", "cacert-dir", "cert", "key", "sni"]

    /// The setting a query key names; nil for an unknown key.
    static func setting(named key: String) -> WritableKeyPath<RedisTLSSettings, String?>? {
        switch key {
        case "cacert": return \.caFile
        case "cacert-dir": return \.caDirectory
        case "cert": return \.certificateFile
        case "key": return \.keyFile
        case "sni": return \.serverName
        default: return nil
        }
    }

    /// `CDSCRIPT_REDIS_*` variables, read through `lookup` (the environment).
    public static func fromEnvironment(_ lookup: (String) -> String?) -> RedisTLSSettings {
        func value(_ name: String) -> String? { lookup(name).flatMap { $0.isEmpty ? nil : $0 } }
        return RedisTLSSettings(caFile: value("CDSCRIPT_REDIS_CACERT"),
                                caDirectory: value("CDSCRIPT_REDIS_CACERT_DIR"),
                                certificateFile: value("CDSCRIPT_REDIS_CERT"),
                                keyFile: value("CDSCRIPT_REDIS_KEY"),
                                serverName: value("CDSCRIPT_REDIS_SNI"),
                                insecure: value("CDSCRIPT_REDIS_INSECURE").map(isTrue))
    }

    /// `1`, `true`, `yes` and `on` (any case) are true; anything else is false.
    static func isTrue(_ text: String) -> Bool {
        ["1", "true", "yes", "on"].contains(text.lowercased())
    }
}
