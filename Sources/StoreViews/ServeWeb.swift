import CountdownCore

/// The seam between `serve` (here, without a web server) and the pages it
/// serves (cdscript-serve, which links CountdownWeb): cdscript-serve installs
/// `start` before it runs the command line; in `cdscript` it stays nil, and
/// `serve` hands the process over to cdscript-serve instead (ServeProgram).
public enum ServeWeb {
    /// Starts the pages and the API, or throws (an `ExitCode` with the status
    /// users know: 11 address taken, 13 unusable TLS file, 5 otherwise).
    /// Set once, before `CommandLineEntry.main()`, and only read after.
    nonisolated(unsafe) public static var start: ((Request) throws -> Server)?

    /// What `serve`'s options say about its web side.
    public struct Request: Sendable {
        /// HOST:PORT as --listen gave it, and split.
        public let listen: String
        public let host: String
        public let port: Int
        public let tokenFile: String?
        public let stateDir: String?
        public let publicRead: Bool
        public let allowedHosts: [String]
        public let tlsCertificate: String?
        public let tlsKey: String?
        /// Opens the server's own handle on the store `serve` follows (on the server's thread).
        public let openStore: @Sendable () throws -> CountdownStoreBackend
        /// The instant stored countdowns are read at, as every command reads it.
        public let now: @Sendable () -> StoreInstant

        public init(listen: String, host: String, port: Int, tokenFile: String?, stateDir: String?, publicRead: Bool,
                    allowedHosts: [String], tlsCertificate: String?, tlsKey: String?,
                    openStore: @escaping @Sendable () throws -> CountdownStoreBackend, now: @escaping @Sendable () -> StoreInstant) {
            self.listen = listen
            self.host = host
            self.port = port
            self.tokenFile = tokenFile
            self.stateDir = stateDir
            self.publicRead = publicRead
            self.allowedHosts = allowedHosts
            self.tlsCertificate = tlsCertificate
            self.tlsKey = tlsKey
            self.openStore = openStore
            self.now = now
        }
    }

    /// A running web side: told of each change the end-action runner's feed reports; stopped once.
    public protocol Server: AnyObject {
        func storeChanged(_ changes: CountdownChanges)
        /// SIGHUP: reads --tls-cert/--tls-key again for new connections; unusable
        /// files are said on stderr and the certificate in use stays.
        func reloadTLS()
        func stop()
    }
}
