#if canImport(Glibc)
import Glibc
#endif
import CHiredis
import CRedisTLS

/// The bytes of a `rediss://` connection: a TLS stream (CRedisTLS, OpenSSL)
/// under hiredis's own protocol layer, its command formatter
/// (`redisFormatCommandArgv`) and reply reader (`redisReader`), the same code
/// that reads replies on a plain connection. Commands are buffered until a reply
/// is awaited, so a pipeline goes out in one write.
final class RedisTLSTransport {
    private var stream: OpaquePointer?
    private let reader: UnsafeMutablePointer<redisReader>
    private var output: [UInt8] = []
    private var input = [CChar](repeating: 0, count: 16 * 1024)
    /// How long one read or write may wait.
    var timeoutMilliseconds: Int

    /// Connects and completes the handshake; throws the reason (OpenSSL's) when
    /// the server cannot be reached, is not TLS, or is not the one named.
    init(host: String, port: Int, settings: RedisTLSSettings, timeoutMilliseconds: Int) throws(RedisError) {
        self.timeoutMilliseconds = timeoutMilliseconds
        var error = [CChar](repeating: 0, count: 512)
        let made: OpaquePointer? = Self.withOptions(settings) { options in
            withUnsafePointer(to: options) { options in
                cdtls_connect(host, Int32(port), options, Int32(clamping: timeoutMilliseconds), &error, error.count)
            }
        }
        guard let made else { throw RedisError(connectionLost: true, message: Self.text(error)) }
        guard let reader = redisReaderCreate() else {
            cdtls_close(made)
            throw RedisError(connectionLost: true, message: "out of memory")
        }
        stream = made
        self.reader = reader
    }

    deinit {
        close()
        redisReaderFree(reader)
    }

    var fd: Int32 { stream.map { cdtls_fd($0) } ?? -1 }

    func close() {
        if let stream { cdtls_close(stream) }
        stream = nil
    }

    /// Formats one command into the output buffer.
    func append(_ arguments: [String]) throws(RedisError) {
        var formatted: UnsafeMutablePointer<CChar>?
        let length = Self.withArgv(arguments) { argc, argv, lengths in
            redisFormatCommandArgv(&formatted, argc, argv, lengths)
        }
        guard length >= 0, let formatted else { throw RedisError(connectionLost: true, message: "out of memory") }
        defer { redisFreeCommand(formatted) }
        formatted.withMemoryRebound(to: UInt8.self, capacity: Int(length)) {
            output.append(contentsOf: UnsafeBufferPointer(start: $0, count: Int(length)))
        }
    }

    /// Sends what was appended.
    func flush() throws(RedisError) {
        guard !output.isEmpty else { return }
        guard let stream else { throw RedisError(connectionLost: true, message: "not connected") }
        var error = [CChar](repeating: 0, count: 512)
        let status = output.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) {
                cdtls_write(stream, $0.baseAddress, $0.count, Int32(clamping: timeoutMilliseconds), &error, error.count)
            }
        }
        output.removeAll(keepingCapacity: true)
        if status != 0 { throw RedisError(connectionLost: true, message: Self.text(error)) }
    }

    /// The next reply (a hiredis reply object the caller frees), waiting up to the
    /// timeout for each read.
    func reply() throws(RedisError) -> UnsafeMutableRawPointer {
        try flush()
        while true {
            if let reply = try parsed() { return reply }
            if try read(waitingMilliseconds: timeoutMilliseconds) == 0 {
                throw RedisError(connectionLost: true, message: "Resource temporarily unavailable")
            }
        }
    }

    /// Every whole reply already received, without waiting: reads until the stream
    /// has nothing more, so no decrypted byte is left where poll(2) cannot see it.
    func pendingReplies() throws(RedisError) -> [UnsafeMutableRawPointer] {
        try flush()
        while try read(waitingMilliseconds: 0) > 0 {}
        var replies: [UnsafeMutableRawPointer] = []
        while let reply = try parsed() { replies.append(reply) }
        return replies
    }

    private func parsed() throws(RedisError) -> UnsafeMutableRawPointer? {
        var raw: UnsafeMutableRawPointer?
        guard redisReaderGetReply(reader, &raw) == REDIS_OK else {
            let reason = withUnsafeBytes(of: reader.pointee.errstr) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            throw RedisError(connectionLost: true, message: reason.isEmpty ? "protocol error" : reason)
        }
        return raw
    }

    /// Feeds the reader what one read brings; 0 when nothing came in time.
    private func read(waitingMilliseconds: Int) throws(RedisError) -> Int {
        guard let stream else { throw RedisError(connectionLost: true, message: "not connected") }
        var error = [CChar](repeating: 0, count: 512)
        let count = input.withUnsafeMutableBufferPointer {
            cdtls_read(stream, $0.baseAddress, $0.count, Int32(clamping: waitingMilliseconds), &error, error.count)
        }
        if count < 0 { throw RedisError(connectionLost: true, message: Self.text(error)) }
        if count > 0 {
            let fed = input.withUnsafeBufferPointer { redisReaderFeed(reader, $0.baseAddress, count) }
            if fed != REDIS_OK { throw RedisError(connectionLost: true, message: "out of memory") }
        }
        return count
    }

    private static func text(_ error: [CChar]) -> String {
        let bytes = error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return bytes.isEmpty ? "TLS error" : String(decoding: bytes, as: UTF8.self)
    }

    /// Runs `body` with the settings as C strings that live as long as the call.
    private static func withOptions<T>(_ settings: RedisTLSSettings, _ body: (cdtls_options) -> T) -> T {
        let strings = [settings.caFile, settings.caDirectory, settings.certificateFile, settings.keyFile, settings.serverName]
            .map { $0.flatMap { strdup($0) } }
        defer { for s in strings { free(s) } }
        let options = cdtls_options(ca_file: strings[0], ca_dir: strings[1], cert_file: strings[2], key_file: strings[3],
                                    server_name: strings[4], insecure: settings.skipsVerification ? 1 : 0)
        return body(options)
    }

    /// Runs `body` with the arguments as C's argc, argv and lengths (binary-safe).
    private static func withArgv<T>(_ arguments: [String], _ body: (Int32, UnsafeMutablePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int>?) -> T) -> T {
        let buffers = arguments.map { Array($0.utf8) }
        let lengths = buffers.map { $0.count }
        var pointers: [UnsafePointer<CChar>?] = buffers.map { bytes in
            let p = UnsafeMutablePointer<CChar>.allocate(capacity: max(1, bytes.count))
            bytes.withUnsafeBytes { if !$0.isEmpty { UnsafeMutableRawPointer(p).copyMemory(from: $0.baseAddress!, byteCount: $0.count) } }
            return UnsafePointer(p)
        }
        defer { for p in pointers { UnsafeMutablePointer(mutating: p)?.deallocate() } }
        return pointers.withUnsafeMutableBufferPointer { argv in
            lengths.withUnsafeBufferPointer { lengths in
                body(Int32(argv.count), argv.baseAddress, lengths.baseAddress)
            }
        }
    }
}
