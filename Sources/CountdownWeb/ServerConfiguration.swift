import CountdownCore

/// How a `CountdownWebServer` listens and whom it lets in. The defaults are the
/// safe ones: loopback, control only with the token, reads open only there.
public struct ServerConfiguration: Sendable {
    /// The address to listen on (an IP address or `localhost`).
    public var host: String
    /// The port; 0 picks a free one (the server reports which).
    public var port: Int
    /// The bearer token that control requests (POST) must carry.
    public var controlToken: String
    /// Reads (GET of the API and the event stream) without the token. Always
    /// true on loopback; elsewhere only when the caller says so (`--public-read`).
    public var publicRead: Bool
    /// Extra names the Host header may carry besides the listen address and
    /// localhost (a name the machine is reached by on the network).
    public var allowedHosts: [String]
    /// Open connections at most; past it a new one gets 503 and is closed.
    public var maxConnections: Int
    /// Bytes of request line and headers at most (431 past it).
    public var maxHeadBytes: Int
    /// Bytes of request body at most (413 past it).
    public var maxBodyBytes: Int
    /// Seconds a request may take to arrive whole (slow clients, 408 past it).
    public var requestTimeout: Double
    /// Seconds a connection may sit with nothing read or written before it is closed:
    /// an idle keep-alive connection, or an event stream nothing was sent on.
    public var idleTimeout: Double
    /// When set, the server shows this script's view (`cdscript run SCRIPT
    /// --serve`) and nothing else: no stored countdowns, no API for them.
    public var scriptView: ScriptViewChannel?
    /// Seconds between the comment lines sent on every open event stream while
    /// nothing changes: they keep proxies from closing a quiet stream, and find a
    /// peer that went away (the write fails, or stays unacknowledged for two
    /// intervals). One timer for all the streams, and none while none is open.
    public var heartbeatInterval: Double
    /// Bytes an event stream may have unsent (in the server and in its socket's
    /// send buffer, each) before its reader counts as not keeping up and is dropped.
    public var maxUnsentStreamBytes: Int
    /// HTTPS (`ServerTLS.load`); nil serves plain HTTP.
    public var tls: ServerTLS?

    public init(host: String = "127.0.0.1", port: Int = 8765, controlToken: String, publicRead: Bool = false,
                allowedHosts: [String] = [], maxConnections: Int = 1024, maxHeadBytes: Int = 32 * 1024,
                maxBodyBytes: Int = 16 * 1024, requestTimeout: Double = 10, idleTimeout: Double = 300,
                heartbeatInterval: Double = 45, maxUnsentStreamBytes: Int = 256 * 1024, tls: ServerTLS? = nil) {
        self.host = host
        self.port = port
        self.controlToken = controlToken
        self.publicRead = publicRead
        self.allowedHosts = allowedHosts
        self.maxConnections = maxConnections
        self.maxHeadBytes = maxHeadBytes
        self.maxBodyBytes = maxBodyBytes
        self.requestTimeout = requestTimeout
        self.idleTimeout = idleTimeout
        self.heartbeatInterval = heartbeatInterval
        self.maxUnsentStreamBytes = maxUnsentStreamBytes
        self.tls = tls
    }

    /// True when the listen address is loopback only.
    public var isLoopback: Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    /// Reads need no token: on loopback, or when configured.
    var readsArePublic: Bool { publicRead || isLoopback }
}
