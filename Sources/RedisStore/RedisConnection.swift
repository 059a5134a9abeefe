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
/// A `rediss://` URL runs the same protocol layer over TLS (`RedisTLSTransport`);
/// plain `redis://` is hiredis's own connection, as fast as it was.
/// Once an I/O error happened the connection is unusable and must be replaced.
final class RedisConnection {
    let url: RedisURL
    private var context: UnsafeMutablePointer<redisContext>?
    /// The TLS stream of a `rediss://` URL (then `context` is nil).
    private var tls: RedisTLSTransport?

    /// Connects, authenticates and selects the database.
    init(_ url: RedisURL, timeoutMilliseconds: Int) throws(RedisError) {
        self.url = url
        if let name = url.masterName {
            try connectToPrimary(named: name, timeoutMilliseconds: timeoutMilliseconds)
            return
        }
        try open(host: url.host, port: url.port, timeoutMilliseconds: timeoutMilliseconds)
    }

    /// Connects to `host`:`port` as the URL says (TLS or not), authenticates and
    /// selects the database.
    func open(host: String, port: Int, timeoutMilliseconds: Int) throws(RedisError) {
        if let settings = url.tls {
            try connectOverTLS(settings, host: host, port: port, timeoutMilliseconds: timeoutMilliseconds)
            return
        }
        let tv = timeval(tv_sec: timeoutMilliseconds / 1000, tv_usec: Int((timeoutMilliseconds % 1000) * 1000))
        guard let c = redisConnectWithTimeout(host, Int32(port), tv) else {
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
        try authenticateAndSelect()
    }

    /// Over TLS, the first round trip is part of connecting: a server that refuses
    /// this client's certificate says so only after the handshake (TLS 1.3), and
    /// that is a failure to connect, named as such, not a lost connection.
    private func connectOverTLS(_ settings: RedisTLSSettings, host: String, port: Int, timeoutMilliseconds: Int) throws(RedisError) {
        do throws(RedisError) {
            let transport = try RedisTLSTransport(host: host, port: port, settings: settings,
                                                  timeoutMilliseconds: timeoutMilliseconds)
            tls = transport
            _ = cdl_cut_on_termination(transport.fd)
            if url.password == nil, case .error(let e) = try command(["PING"]), !e.hasPrefix("NOAUTH") {
                close()
                throw RedisError(connectionLost: false, message: "\(url): \(e)")
            }
        } catch let error where error.connectionLost {
            close()
            let reason = error.message.hasPrefix("lost the connection to \(url): ")
                ? String(error.message.dropFirst("lost the connection to \(url): ".count)) : error.message
            throw RedisError(connectionLost: true, message: "cannot connect to \(url): \(reason)")
        }
        try authenticateAndSelect()
    }

    private func authenticateAndSelect() throws(RedisError) {
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

    var isOpen: Bool { context != nil || tls != nil }

    func setTimeout(milliseconds: Int) {
        tls?.timeoutMilliseconds = milliseconds
        guard let context else { return }
        redisSetTimeout(context, timeval(tv_sec: milliseconds / 1000, tv_usec: Int((milliseconds % 1000) * 1000)))
    }
    var fd: Int32 { tls?.fd ?? context?.pointee.fd ?? -1 }

    func close() {
        if let tls {
            cdl_keep_on_termination(tls.fd)
            tls.close()
        }
        tls = nil
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
        if let tls {
            do { try tls.append(arguments) } catch { throw lost(error.message) }
            return
        }
        guard let c = context else { throw RedisError(connectionLost: true, message: "\(url): not connected") }
        // Every argument's bytes in one buffer, each passed by its offset and
        // length (hiredis copies them into the command): one allocation a
        // command, where a copy of each argument and a C string of each were two
        // (a third of what storing a countdown cost, 1,000,000 created at once).
        var bytes: [UInt8] = []
        var offsets: [Int] = [], lengths: [Int] = []
        offsets.reserveCapacity(arguments.count)
        lengths.reserveCapacity(arguments.count)
        for argument in arguments {
            offsets.append(bytes.count)
            lengths.append(argument.utf8.count)
            bytes.append(contentsOf: argument.utf8)
        }
        bytes.append(0)   // never empty: its base address is never nil
        let status = bytes.withUnsafeBufferPointer { buffer in
            let base = UnsafeRawPointer(buffer.baseAddress!)
            var argv = offsets.map { Optional((base + $0).assumingMemoryBound(to: CChar.self)) }
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
        if let tls {
            cdl_set_waiting_on_store(1)
            defer { cdl_set_waiting_on_store(0) }
            let raw: UnsafeMutableRawPointer
            do { raw = try tls.reply() } catch { throw lost(error.message) }
            defer { freeReplyObject(raw) }
            return try checked(RedisReply(raw.assumingMemoryBound(to: redisReply.self)))
        }
        guard let c = context else { throw RedisError(connectionLost: true, message: "\(url): not connected") }
        var raw: UnsafeMutableRawPointer?
        cdl_set_waiting_on_store(1)
        let status = redisGetReply(c, &raw)
        cdl_set_waiting_on_store(0)
        guard status == REDIS_OK, let raw else { throw lost() }
        defer { freeReplyObject(raw) }
        return try checked(RedisReply(raw.assumingMemoryBound(to: redisReply.self)))
    }

    /// Through the sentinels, a primary that was demoted answers writes with
    /// `READONLY`: the primary moved, and this connection is lost like one to a
    /// server that went away (the change is kept and sent to the new primary).
    /// Elsewhere it is the server's answer (a URL naming a replica is a mistake
    /// to report, not to retry forever).
    private func checked(_ reply: RedisReply) throws(RedisError) -> RedisReply {
        // A script's write on a replica fails inside the script: the same error,
        // after the script's own prefix on some versions.
        if url.isSentinel, case .error(let e) = reply, e.hasPrefix("READONLY") || e.contains("READONLY You can't write") {
            throw lost("the server is a read-only replica now (the primary moved): \(e)")
        }
        return reply
    }

    /// Replies already received without blocking: reads what the socket holds once
    /// (call it when the descriptor is readable), then parses every whole reply.
    func pendingReplies() throws(RedisError) -> [RedisReply] {
        if let tls {
            let raws: [UnsafeMutableRawPointer]
            do { raws = try tls.pendingReplies() } catch { throw lost(error.message) }
            defer { for raw in raws { freeReplyObject(raw) } }
            return raws.map { RedisReply($0.assumingMemoryBound(to: redisReply.self)) }
        }
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

    private func lost(_ reason: String? = nil) -> RedisError {
        let message = reason ?? context.map(Self.errorText) ?? "not connected"
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
}
