import CountdownCore
import FoundationEssentials
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
#if canImport(Glibc)
import Glibc
#endif

/// Serves stored countdowns over HTTP: the API, the event stream and the pages
/// (docs/serve.md). One event-loop thread runs everything, the store calls
/// included: a countdown store is not shared between threads, and its calls are
/// short. Callers on other threads reach it through the methods below, which
/// hop onto that thread.
///
/// The caller owns the store, the clock and the token, and tells the server when
/// the store changed (`storeChanged`, from the store's change feed); changes the
/// server makes itself reach the pages at once.
public final class CountdownWebServer: Sendable {
    private let group: MultiThreadedEventLoopGroup
    let core: ServerCore
    private let channel: any Channel

    /// The port listened on (useful when the configuration said 0).
    public var port: Int { channel.localAddress?.port ?? 0 }

    /// Starts listening. `makeStore` runs on the server's thread, which owns the
    /// store from then on; `clock` is read there too, for every answer.
    public init(configuration: ServerConfiguration,
                makeStore: @escaping @Sendable () throws -> CountdownStoreBackend,
                clock: @escaping @Sendable () -> StoreInstant,
                timeZone: any LocalZone = SystemLocalZone()) throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        do {
            let core = try loop.submit {
                let core = ServerCore(configuration: configuration, store: try makeStore(), clock: clock, timeZone: timeZone, eventLoop: loop)
                core.storeChanged(.unknown)
                return core
            }.wait()
            let bootstrap = ServerBootstrap(group: group)
                .serverChannelOption(ChannelOptions.backlog, value: 256)
                .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
                .childChannelOption(ChannelOptions.socketOption(.so_keepalive), value: 1)
                // Small answers and events go out at once, not held back for more (Nagle).
                .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try Self.setUp(channel, core: core)
                    }
                }
            let channel = try bootstrap.bind(host: configuration.host, port: configuration.port).wait()
            try loop.submit { core.port = channel.localAddress?.port ?? configuration.port }.wait()
            self.group = group
            self.core = core
            self.channel = channel
        } catch {
            try? group.syncShutdownGracefully()
            throw error
        }
    }

    /// The pipeline of one connection, or a 503 when the cap is reached.
    private static func setUp(_ channel: any Channel, core: ServerCore) throws {
        let pipeline = channel.pipeline.syncOperations
        // TLS first, so that everything below (the 503 too) is encrypted; a client
        // that speaks plain HTTP here fails the handshake and is closed.
        if let tls = core.tls {
            try pipeline.addHandler(NIOSSLServerHandler(context: tls.context))
        }
        guard core.connections < core.configuration.maxConnections else {
            try pipeline.addHandler(RefuseOnActive())
            return
        }
        core.connections += 1
        channel.closeFuture.whenComplete { _ in core.connections -= 1 }
        let limiter = HeadSizeLimiter(limit: core.configuration.maxHeadBytes)
        try pipeline.addHandler(limiter)
        try pipeline.configureHTTPServerPipeline(withPipeliningAssistance: true, withErrorHandling: true)
        let idle = TimeAmount.nanoseconds(Int64(core.configuration.idleTimeout * 1e9))
        try pipeline.addHandler(IdleStateHandler(allTimeout: idle))
        try pipeline.addHandler(HTTPConnectionHandler(core: core, limiter: limiter))
    }

    /// The store changed (what a change feed reported): the server reads what
    /// changed and tells the pages. Safe from any thread.
    public func storeChanged(_ changes: CountdownChanges) {
        let core = self.core
        core.eventLoop.execute { core.storeChanged(changes) }
    }

    /// Runs `body` with the store on the server's thread and, when `notify`,
    /// tells the pages what it changed (for a caller that writes the store
    /// itself, and for tests; without `notify`, as another process would write it).
    public func withStore<T: Sendable>(notify: Bool = true, _ body: @escaping @Sendable (CountdownStoreBackend) throws -> T) throws -> T {
        let core = self.core
        return try core.eventLoop.submit { try core.withStore(notify: notify, body) }.wait()
    }

    /// Open event streams, read on the server's thread (for tests and the benchmark).
    public func eventStreamCount() throws -> Int {
        let core = self.core
        return try core.eventLoop.submit { core.subscribers.count }.wait()
    }

    /// Whether the heartbeat timer is set, read on the server's thread (for tests).
    func heartbeatIsScheduled() throws -> Bool {
        let core = self.core
        return try core.eventLoop.submit { core.heartbeatIsScheduled }.wait()
    }

    /// Reads the certificate chain and key again (a renewed certificate, on SIGHUP)
    /// for the connections made from now on; open connections keep the one they
    /// were given. The files are checked as at start (`ServerTLS.load`): when they
    /// cannot be used, this throws that `TLSFileError` (the file and OpenSSL's
    /// reason) and the certificate in use stays. A server started over plain
    /// HTTP stays plain (the files are still checked, to report them). Safe from
    /// any thread.
    public func reloadTLS(certificate: String, key: String) throws {
        let tls = try ServerTLS.load(certificate: certificate, key: key)
        let core = self.core
        try core.eventLoop.submit { if core.tls != nil { core.tls = tls } }.wait()
    }

    /// Makes the server fall silent, or speak again (for tests of the pages): while
    /// silent it writes nothing and answers nothing, its connections open, as a
    /// stopped process or a host gone from the network would (`ServerCore.setSilent`).
    func setSilent(_ silent: Bool) throws {
        let core = self.core
        try core.eventLoop.submit { core.setSilent(silent) }.wait()
    }

    /// True when `error`, thrown by `init`, says the address is taken (EADDRINUSE).
    public static func isAddressInUse(_ error: any Error) -> Bool {
        (error as? IOError)?.errnoCode == EADDRINUSE
    }

    /// Stops listening, closes every connection and the thread. Safe to call once.
    public func stop() throws {
        let core = self.core
        try? core.eventLoop.submit { core.stopTimers() }.wait()
        try? channel.close().wait()
        try group.syncShutdownGracefully()
    }
}

/// A connection past the cap: told so (503) and closed, before any request is read.
private final class RefuseOnActive: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    func channelActive(context: ChannelHandlerContext) {
        RawResponse.send(status: "503 Service Unavailable", message: "too many connections: try again later", context: context)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}
}
