import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A response as read off the socket.
struct HTTPReply {
    var status: Int
    var headers: [(String, String)]
    var body: String

    func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    /// The body as JSON.
    var json: Any? { try? JSONSerialization.jsonObject(with: Data(body.utf8), options: [.fragmentsAllowed]) }
}

struct SocketError: Error, CustomStringConvertible {
    let description: String
}

/// HTTP/1.1 written and read by hand over a loopback socket, so that tests can
/// send exactly the bytes they mean (hostile headers, oversized heads, a client
/// that sends a byte at a time) and see exactly what came back.
final class RawHTTP {
    let fd: Int32
    private var pending: [UInt8] = []

    /// `receiveBuffer`: the socket's receive buffer in bytes (small for a reader that falls behind soon).
    init(port: Int, receiveBuffer: Int32? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SocketError(description: "socket: \(errno)") }
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            close(fd)
            throw SocketError(description: "connect: \(errno)")
        }
    }

    deinit { close(fd) }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw SocketError(description: "send: \(errno)") }
            offset += n
        }
    }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Bytes read within `timeout` seconds: what arrived (empty at end of stream or timeout).
    func read(timeout: Double) -> [UInt8]? {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(timeout * 1000)) > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let n = recv(fd, &buffer, buffer.count, 0)
        return n > 0 ? Array(buffer[..<n]) : []
    }

    /// Reads until the peer closes (or `timeout` seconds pass without a byte).
    func readAll(timeout: Double = 10) -> [UInt8] {
        var all = pending
        pending = []
        while let chunk = read(timeout: timeout), !chunk.isEmpty { all += chunk }
        return all
    }

    /// Reads until `text` has arrived (true), or `timeout` seconds passed (false).
    func readUntil(_ text: String, timeout: Double) -> (found: Bool, text: String) {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let sofar = String(decoding: pending, as: UTF8.self)
            if sofar.contains(text) { return (true, sofar) }
            let left = deadline.timeIntervalSinceNow
            guard left > 0, let chunk = read(timeout: left), !chunk.isEmpty else { return (false, sofar) }
            pending += chunk
        }
    }

    /// Reads what has arrived without waiting, keeping only the last `keep` bytes of all read.
    func drain(keep: Int = 65536) {
        while let chunk = read(timeout: 0), !chunk.isEmpty { pending += chunk }
        if pending.count > keep { pending.removeFirst(pending.count - keep) }
    }

    /// True when the peer closed the connection within `timeout` seconds.
    func closed(within timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while deadline.timeIntervalSinceNow > 0 {
            guard let chunk = read(timeout: deadline.timeIntervalSinceNow) else { return false }
            if chunk.isEmpty { return true }
            pending += chunk
        }
        return false
    }

    /// One request on a new connection; the reply read to the close.
    static func exchange(port: Int, _ request: [UInt8]) throws -> HTTPReply {
        let connection = try RawHTTP(port: port)
        try connection.send(request)
        return try parse(connection.readAll())
    }

    static func parse(_ bytes: [UInt8]) throws -> HTTPReply {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { throw SocketError(description: "no HTTP head in \(text.prefix(200))") }
        let lines = text[..<split.lowerBound].components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw SocketError(description: "bad status line \(lines[0])") }
        var headers: [(String, String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        var body = String(text[split.upperBound...])
        if headers.contains(where: { $0.0.lowercased() == "transfer-encoding" && $0.1.contains("chunked") }) {
            body = dechunked(body)
        }
        return HTTPReply(status: status, headers: headers, body: body)
    }

    private static func dechunked(_ text: String) -> String {
        var rest = Substring(text)
        var out = ""
        while let line = rest.range(of: "\r\n") {
            guard let size = Int(rest[..<line.lowerBound], radix: 16), size > 0 else { break }
            let start = line.upperBound
            let end = rest.utf8.index(start, offsetBy: size)
            out += rest[start..<end]
            rest = rest[end...].dropFirst(2)
        }
        return out
    }
}
