import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// HTTP/1.1 written by hand over TLS (NIO's client with NIOSSL), trusting only
/// the test's own certificate: what `RawHTTP` is for plain HTTP. `close()` ends
/// the connection and its thread; tests call it in a defer.
final class TLSClient {
    private let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    private let inbox = Inbox()
    private let channel: any Channel

    init(port: Int, trusting certificate: String, serverName: String = "localhost") throws {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(certificate))
        let context = try NIOSSLContext(configuration: configuration)
        let inbox = self.inbox
        do {
            channel = try ClientBootstrap(group: group).channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: context, serverHostname: serverName))
                    try channel.pipeline.syncOperations.addHandler(Collector(inbox: inbox))
                }
            }.connect(host: "127.0.0.1", port: port).wait()
        } catch {
            try? group.syncShutdownGracefully()
            throw error
        }
    }

    func close() {
        try? channel.close().wait()
        try? group.syncShutdownGracefully()
    }

    func send(_ text: String) throws {
        try channel.writeAndFlush(ByteBuffer(string: text)).wait()
    }

    /// Waits until `text` has arrived (true) or `timeout` seconds passed or the
    /// connection ended (false); also what arrived so far, and the TLS error if any.
    func readUntil(_ text: String, timeout: Double) -> (found: Bool, text: String, error: (any Error)?) {
        inbox.wait(timeout: timeout) { String(decoding: $0, as: UTF8.self).contains(text) }
    }

    /// Reads until the server closes the connection (or `timeout` passes).
    func readAll(timeout: Double = 10) -> String {
        inbox.waitForClose(timeout: timeout)
    }
}

/// What the client received, filled on its event loop and read by the test.
private final class Inbox: @unchecked Sendable {
    private let condition = NSCondition()
    private var bytes: [UInt8] = []
    private var closed = false
    private var error: (any Error)?

    func append(_ more: [UInt8]) { condition.lock(); bytes += more; condition.broadcast(); condition.unlock() }
    func fail(_ failure: any Error) { condition.lock(); error = failure; condition.broadcast(); condition.unlock() }
    func close() { condition.lock(); closed = true; condition.broadcast(); condition.unlock() }

    func wait(timeout: Double, until holds: ([UInt8]) -> Bool) -> (found: Bool, text: String, error: (any Error)?) {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while !holds(bytes), !closed, condition.wait(until: deadline) {}
        return (holds(bytes), String(decoding: bytes, as: UTF8.self), error)
    }

    func waitForClose(timeout: Double) -> String {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while !closed, condition.wait(until: deadline) {}
        return String(decoding: bytes, as: UTF8.self)
    }
}

private final class Collector: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    let inbox: Inbox

    init(inbox: Inbox) { self.inbox = inbox }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        inbox.append(buffer.readBytes(length: buffer.readableBytes) ?? [])
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        inbox.fail(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        inbox.close()
    }
}
