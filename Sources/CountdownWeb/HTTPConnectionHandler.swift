import NIOCore
import NIOHTTP1
#if canImport(Glibc)
import Glibc
#endif

/// One connection: gathers each request whole (within the body limit and the
/// request timeout), asks the server's core for the answer and writes it; or,
/// for `GET /api/events`, keeps the response open as an event stream.
final class HTTPConnectionHandler: ChannelInboundHandler, EventSubscriber {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let core: ServerCore
    private let limiter: HeadSizeLimiter
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []
    private var discarding = false
    private var streaming = false
    /// The streams this one is among, once it streams.
    private var streamSubscribers: EventSubscribers?
    private var requestTimer: Scheduled<Void>?
    private var context: ChannelHandlerContext?

    init(core: ServerCore, limiter: HeadSizeLimiter) {
        self.core = core
        self.limiter = limiter
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        startRequestTimer(context: context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        requestTimer?.cancel()
        if streaming, let streamSubscribers { core.removeStream(self, from: streamSubscribers) }
        self.context = nil
        context.fireChannelInactive()
    }

    /// A request must arrive whole within the timeout (a client that sends a byte
    /// now and then must not hold a connection for ever): 408 past it.
    private func startRequestTimer(context: ChannelHandlerContext) {
        requestTimer?.cancel()
        let limiter = NIOLoopBound(self.limiter, eventLoop: context.eventLoop)
        let seconds = core.configuration.requestTimeout
        requestTimer = context.eventLoop.scheduleTask(in: .nanoseconds(Int64(seconds * 1e9))) {
            limiter.value.refuse(status: "408 Request Timeout", message: "the request did not arrive within \(seconds) seconds")
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // Idle keep-alive connections are closed (an event stream has no idle timer).
        if event is IdleStateHandler.IdleStateEvent, !streaming, head == nil {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !streaming, !discarding || isEnd(data) else { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body = []
            if let length = head.headers["content-length"].first.flatMap(Int.init), length > core.configuration.maxBodyBytes {
                tooLarge()
            }
        case .body(var chunk):
            guard !discarding else { return }
            if body.count + chunk.readableBytes > core.configuration.maxBodyBytes {
                tooLarge()
                return
            }
            body += chunk.readBytes(length: chunk.readableBytes) ?? []
        case .end:
            requestTimer?.cancel()
            guard let head, !discarding else { return }
            self.head = nil
            let request = WebRequest(method: head.method, target: head.uri, headers: head.headers, body: body)
            body = []
            core.whenSpeaking { [self] in
                // Held while the server was silent: the client may have gone meanwhile.
                guard self.context != nil, context.channel.isActive else { return }
                answer(request, head: head, context: context)
            }
        }
    }

    private func answer(_ request: WebRequest, head: HTTPRequestHead, context: ChannelHandlerContext) {
        switch core.route(request) {
        case .response(let response): respond(response, to: head, context: context)
        case .eventStream: startStream(head, first: core.snapshotText(), subscribers: core.subscribers, context: context)
        case .stream(let first, let subscribers): startStream(head, first: first, subscribers: subscribers, context: context)
        }
    }

    private func isEnd(_ data: NIOAny) -> Bool {
        if case .end = unwrapInboundIn(data) { return true }
        return false
    }

    private func tooLarge() {
        discarding = true
        limiter.refuse(status: "413 Content Too Large", message: "the request body is longer than \(core.configuration.maxBodyBytes) bytes")
    }

    private func respond(_ response: WebResponse, to head: HTTPRequestHead, context: ChannelHandlerContext) {
        let keepAlive = head.isKeepAlive
        context.write(wrapOutboundOut(.head(response.head(version: head.version, keepAlive: keepAlive))), promise: nil)
        if !response.body.isEmpty {
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: response.body)))), promise: nil)
        }
        if keepAlive {
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            limiter.nextRequest()
            startRequestTimer(context: context)
        } else {
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
        }
    }

    private func startStream(_ head: HTTPRequestHead, first snapshot: String, subscribers: EventSubscribers, context: ChannelHandlerContext) {
        streaming = true
        streamSubscribers = subscribers
        // A stream is exempt from the idle timeout, so its idle timer would only wake
        // the server every `idleTimeout` for nothing: it goes (the heartbeat finds dead peers).
        let pipeline = context.pipeline.syncOperations
        if let idle = try? pipeline.handler(type: IdleStateHandler.self) { pipeline.removeHandler(idle, promise: nil) }
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "text/event-stream; charset=utf-8")
        for (name, value) in WebResponse.securityHeaders { headers.add(name: name, value: value) }
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .ok, headers: headers))), promise: nil)
        // retry: how soon a page that lost the stream asks again (milliseconds); then
        // the heartbeat, which tells the page the interval it may count on.
        let first = "retry: 1000\n\n" + core.heartbeatText + snapshot
        limitUnsentBytes(context.channel, snapshotBytes: first.utf8.count)
        context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: first)))), promise: nil)
        core.addStream(self, to: subscribers)
    }

    /// A stream's reader must keep up: what it leaves unread may fill its socket's
    /// send buffer and then NIO's own buffer up to `maxUnsentStreamBytes` each, and
    /// past that the stream is dropped at the next event or heartbeat (`send`).
    /// The snapshot comes on top (a large store's may be bigger than the bound, and
    /// a reader busy with it is not behind). Data the peer does not acknowledge for
    /// two heartbeats (a machine gone from the network) makes the kernel drop the
    /// connection (TCP_USER_TIMEOUT).
    private func limitUnsentBytes(_ channel: any Channel, snapshotBytes: Int) {
        let bound = max(1024, core.configuration.maxUnsentStreamBytes)
        let sync = channel.syncOptions
        try? sync?.setOption(ChannelOptions.writeBufferWaterMark, value: .init(low: bound / 2, high: bound + snapshotBytes))
        try? sync?.setOption(ChannelOptions.socketOption(.so_sndbuf), value: SocketOptionValue(bound))
        let unacknowledged = SocketOptionValue(min(Double(Int32.max), core.configuration.heartbeatInterval * 2 * 1000))
        try? sync?.setOption(ChannelOptions.Types.SocketOption(level: SocketOptionLevel(IPPROTO_TCP), name: SocketOptionName(TCP_USER_TIMEOUT)),
                             value: unacknowledged)
    }

    // MARK: EventSubscriber

    func send(_ event: ByteBuffer) -> Bool {
        guard let context, context.channel.isActive else { return false }
        // A silent server (a test's) sends nothing, and drops no one for it.
        guard !core.isSilent else { return true }
        guard context.channel.isWritable else { return false }
        context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(event))), promise: nil)
        return true
    }

    func end() {
        context?.close(promise: nil)
    }
}
