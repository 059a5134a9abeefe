import ArgumentParser

/// The web side of `cdscript serve`: where it listens and whom it lets in
/// (docs/serve.md). The server itself is CountdownWeb's, in cdscript-serve.
public struct ServeWebOptions: ParsableArguments {
    public init() {}

    @Option(help: ArgumentHelp("Where the pages and the HTTP API listen: HOST:PORT (port 0: any free port, said on start). Loopback unless this names another address.", valueName: "HOST:PORT"))
    public var listen = "127.0.0.1:8765"

    @Flag(name: .customLong("no-web"), help: "Serve no pages and no HTTP API: run the end actions only.")
    public var noWeb = false

    @Option(name: .customLong("token-file"), help: ArgumentHelp("The control token's file (default: serve-token in the state folder; made with mode 0600, and the token printed, on first start).", valueName: "PATH"), completion: .file())
    public var tokenFile: String?

    @Flag(name: .customLong("public-read"), help: "On an address other than loopback, let reads (pages, GET, the event stream) in without the token.")
    public var publicRead = false

    @Option(name: .customLong("allow-host"), help: ArgumentHelp("A name the server is reached by (a Host header it accepts) besides the listen address and localhost. Repeatable.", valueName: "NAME"))
    public var allowedHosts: [String] = []

    @Option(name: .customLong("tls-cert"), help: ArgumentHelp("Serve HTTPS with this PEM certificate (chain), with --tls-key.", valueName: "FILE"), completion: .file())
    public var tlsCertificate: String?

    @Option(name: .customLong("tls-key"), help: ArgumentHelp("The PEM private key of --tls-cert (unencrypted: serve asks for no passphrase).", valueName: "FILE"), completion: .file())
    public var tlsKey: String?

    /// `listen` split into host and port.
    public func address() throws -> (host: String, port: Int) {
        try ListenAddress.parse(listen, option: "--listen")
    }

    public func validate() throws {
        _ = try address()
        switch (tlsCertificate, tlsKey) {
        case (.some, nil): throw ValidationError("--tls-cert needs --tls-key: the private key of the certificate")
        case (nil, .some): throw ValidationError("--tls-key needs --tls-cert: the certificate of the key")
        default: break
        }
    }
}
