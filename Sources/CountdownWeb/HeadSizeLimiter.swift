import NIOCore

/// Bounds a request's line and headers (431 past `limit` bytes), ahead of the
/// HTTP decoder: it counts the bytes of a request up to the blank line that ends
/// its head, and refuses before the decoder sees more than the limit. The
/// connection handler says when the next request may begin (`nextRequest`).
final class HeadSizeLimiter: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let limit: Int
    private var count = 0
    private var readingHead = true
    private var refused = false
    /// How much of the head's end, CR LF CR LF, the last bytes matched.
    private var matched = 0

    private var context: ChannelHandlerContext?

    init(limit: Int) { self.limit = limit }

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }

    func handlerRemoved(context: ChannelHandlerContext) { self.context = nil }

    /// Answers with `status` below the HTTP layer and closes: for a request refused
    /// before it was read whole (413, 408), where the HTTP exchange cannot go on.
    func refuse(status: String, message: String) {
        guard !refused, let context else { return }
        refused = true
        RawResponse.send(status: status, message: message, context: context)
    }

    func nextRequest() {
        readingHead = true
        count = 0
        matched = 0
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        if readingHead {
            let ending: [UInt8] = [13, 10, 13, 10]
            unwrapInboundIn(data).withUnsafeReadableBytes { bytes in
                for byte in bytes {
                    count += 1
                    matched = byte == ending[matched] ? matched + 1 : (byte == 13 ? 1 : 0)
                    if matched == ending.count { readingHead = false; break }
                    if count > limit { break }
                }
            }
            if readingHead && count > limit {
                refuse(status: "431 Request Header Fields Too Large", message: "the request line and headers are longer than \(limit) bytes")
                return
            }
        }
        context.fireChannelRead(data)
    }
}

/// A response written below the HTTP encoder, for a connection that is closed
/// right after it: one refused before (or instead of) any HTTP exchange.
enum RawResponse {
    static func send(status: String, message: String, context: ChannelHandlerContext) {
        // The messages are plain ASCII of this file's own: no escaping needed.
        let body = "{\"error\":\"\(message)\"}\n"
        var text = "HTTP/1.1 \(status)\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n"
        for (name, value) in WebResponse.securityHeaders { text += "\(name): \(value)\r\n" }
        text += "\r\n" + body
        // Written from this handler's place at the front of the pipeline: straight to the socket.
        let buffer = context.channel.allocator.buffer(string: text)
        let channel = context.channel
        context.writeAndFlush(NIOAny(buffer)).whenComplete { _ in channel.close(promise: nil) }
    }
}
