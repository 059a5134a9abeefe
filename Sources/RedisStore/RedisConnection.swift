#if canImport(Glibc)
import Glibc
#endif
import CHiredis
import CLinux

/// A reply from Redis, copied out of hiredis's reply object.
public indirect enum RedisReply: Equatable, Sendable {
    case string(String)
    case integer(Int64)
    case array([RedisReply])
    case null
    case status(String)
    case error(String)

    init(_ reply: UnsafeMutablePointer<redisReply>) {
        let r = reply.pointee
        switch r.type {
        case REDIS_REPLY_STRING:
            self = .string(Self.text(r.str, r.len))
        case REDIS_REPLY_STATUS:
            self = .status(Self.text(r.str, r.len))
        case REDIS_REPLY_ERROR:
            self = .error(Self.text(r.str, r.len))
        case REDIS_REPLY_INTEGER:
            self = .integer(Int64(r.integer))
        case REDIS_REPLY_ARRAY:
            var items: [RedisReply] = []
            for i in 0..<Int(r.elements) { items.append(RedisReply(r.element[i]!)) }
            self = .array(items)
        default:
            self = .null
        }
    }

    private static func text(_ bytes: UnsafeMutablePointer<CChar>?, _ length: Int) -> String {
        guard let bytes else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: bytes, count: length), as: UTF8.self)
    }

    public var string: String? {
        switch self {
        case .string(let s), .status(let s): return s
        default: return nil
        }
    }
}

/// Why a Redis operation failed.
public struct RedisError: Error, CustomStringConvertible, Sendable {
    /// True when the connection is gone or timed out (the operation may be retried
    /// on a new one); false for an error reply from the server.
    public let connectionLost: Bool
    public let message: String
    public var description: String { message }
}

/// One blocking hiredis connection with a timeout on every command, so a server
/// that stopped answering (SIGSTOP, a dead network) costs at most `timeout`.
/// Once an I/O error happened the connection is unusable and must be replaced.
final class RedisConnection {
    let url: RedisURL
    private var context: UnsafeMutablePointer<redisContext>?

    /// Connects, authenticates and selects the database.
    init(_ url: RedisURL, timeoutMilliseconds: Int) throws(RedisError) {
        self.url = url
        let tv = timeval(tv_sec: timeoutMilliseconds / 1000, tv_usec: Int((timeoutMilliseconds % 1000) * 1000))
        guard let c = redisConnectWithTimeout(url.host, Int32(url.port), tv) else {
            throw RedisError(connectionLost: true, message: "cannot connect to \(url): out of memory")
        }
        context = c
        if c.pointee.err != 0 {
            let message = Self.errorText(c)
            redisFree(c)
            context = nil
            throw RedisError(connectionLost: true, message: "cannot connect to \(url): \(message)")
        }
        redisSetTimeout(c, tv)
        // A terminating signal shuts this socket down: a command waiting on a
        // server that stopped answering then fails at once (see store_wait.c).
        _ = cdl_cut_on_termination(c.pointee.fd)
        if let password = url.password {
            let auth = url.user.map { ["AUTH", $0, password] } ?? ["AUTH", password]
            if case .error(let e) = try command(auth) {
                close()
                throw RedisError(connectionLost: false, message: "\(url) refused the password: \(e)")
            }
        }
        if url.database != 0, case .error(let e) = try command(["SELECT", String(url.database)]) {
            close()
            throw RedisError(connectionLost: false, message: "\(url): cannot select database \(url.database): \(e)")
        }
    }

    deinit { close() }

    var isOpen: Bool { context != nil }

    func setTimeout(milliseconds: Int) {
        guard let context else { return }
        redisSetTimeout(context, timeval(tv_sec: milliseconds / 1000, tv_usec: Int((milliseconds % 1000) * 1000)))
    }
    var fd: Int32 { context?.pointee.fd ?? -1 }

    func close() {
        if let context {
            cdl_keep_on_termination(context.pointee.fd)
            redisFree(context)
        }
        context = nil
    }

    /// Sends one command and waits for its reply (up to the timeout).
    func command(_ arguments: [String]) throws(RedisError) -> RedisReply {
        try send(arguments)
        return try reply()
    }

    /// Sends one command without reading its reply.
    func send(_ arguments: [String]) throws(RedisError) {
        guard let c = context else { throw RedisError(connectionLost: true, message: "\(url): not connected") }
        let buffers = arguments.map { Array($0.utf8) }
        let lengths = buffers.map { $0.count }
        let status = Self.withCStrings(buffers) { pointers in
            var argv = pointers
            return argv.withUnsafeMutableBufferPointer { argv in
                lengths.withUnsafeBufferPointer { lengths in
                    redisAppendCommandArgv(c, Int32(argv.count), argv.baseAddress, lengths.baseAddress)
                }
            }
        }
        if status != REDIS_OK { throw lost() }
    }

    /// Waits for the next reply.
    func reply() throws(RedisError) -> RedisReply {
        guard let c = context else { throw RedisError(connectionLost: true, message: "\(url): not connected") }
        var raw: UnsafeMutableRawPointer?
        cdl_set_waiting_on_store(1)
        let status = redisGetReply(c, &raw)
        cdl_set_waiting_on_store(0)
        guard status == REDIS_OK, let raw else { throw lost() }
        defer { freeReplyObject(raw) }
        return RedisReply(raw.assumingMemoryBound(to: redisReply.self))
    }

    /// Replies already received without blocking: reads what the socket holds once
    /// (call it when the descriptor is readable), then parses every whole reply.
    func pendingReplies() throws(RedisError) -> [RedisReply] {
        guard let c = context else { throw RedisError(connectionLost: true, message: "\(url): not connected") }
        if redisBufferRead(c) != REDIS_OK { throw lost() }
        var replies: [RedisReply] = []
        while true {
            var raw: UnsafeMutableRawPointer?
            guard redisGetReplyFromReader(c, &raw) == REDIS_OK else { throw lost() }
            guard let raw else { break }
            replies.append(RedisReply(raw.assumingMemoryBound(to: redisReply.self)))
            freeReplyObject(raw)
        }
        return replies
    }

    private func lost() -> RedisError {
        let message = context.map(Self.errorText) ?? "not connected"
        close()
        return RedisError(connectionLost: true, message: "lost the connection to \(url): \(message)")
    }

    private static func errorText(_ c: UnsafeMutablePointer<redisContext>) -> String {
        withUnsafeBytes(of: c.pointee.errstr) { raw in
            let bytes = raw.prefix { $0 != 0 }
            let text = String(decoding: bytes, as: UTF8.self)
            return text.isEmpty ? "error \(c.pointee.err)" : text
        }
    }

    private static func withCStrings<T>(_ buffers: [[UInt8]], _ body: ([UnsafePointer<CChar>?]) -> T) -> T {
        var pointers: [UnsafeMutablePointer<CChar>?] = []
        for b in buffers {
            let p = UnsafeMutablePointer<CChar>.allocate(capacity: max(1, b.count))
            b.withUnsafeBufferPointer { src in
                if b.count > 0 { UnsafeMutableRawPointer(p).copyMemory(from: src.baseAddress!, byteCount: b.count) }
            }
            pointers.append(p)
        }
        defer { for p in pointers { p?.deallocate() } }
        return body(pointers.map { UnsafePointer($0) })
    }
}
