import Foundation
import RedisTestServer
#if canImport(Glibc)
import Glibc
#endif

/// A stand-in for a Redis server, on a loopback port, that answers one client
/// from a script: each command, as its words, gets the reply `answer` gives (RESP
/// text). For what a real server does only in a race a test cannot time, such as
/// `HSCAN` handing a field on twice when the hash is resized between two slices.
/// Gone with the value: its thread is waited for.
final class ScriptedRedisServer {
    let port: Int
    var url: String { "redis://127.0.0.1:\(port)" }
    private let listener: Int32
    private let finished = DispatchSemaphore(value: 0)

    init(answer: @escaping @Sendable (_ words: [String]) -> String) throws {
        let (fd, port) = try RedisServer.loopbackSocket(listening: true)
        listener = fd
        self.port = port
        // Bounded waits: a client that never comes or never ends cannot hold the thread.
        Self.setReceiveTimeout(fd)
        let finished = finished
        Thread {
            defer { finished.signal() }
            Self.serve(accept(fd, nil, nil), answer)
        }.start()
    }

    deinit {
        // Wakes an `accept` still waiting, then waits for the thread.
        shutdown(listener, Int32(SHUT_RDWR))
        finished.wait()
        close(listener)
    }

    /// A bulk string reply.
    static func bulk(_ text: String) -> String { "$\(text.utf8.count)\r\n\(text)\r\n" }

    /// An array reply of replies.
    static func array(_ items: [String]) -> String { "*\(items.count)\r\n" + items.joined() }

    private static func setReceiveTimeout(_ fd: Int32) {
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    private static func serve(_ client: Int32, _ answer: ([String]) -> String) {
        guard client >= 0 else { return }
        defer { close(client) }
        setReceiveTimeout(client)
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            while let (words, length) = command(at: received) {
                received.removeFirst(length)
                let reply = Array(answer(words).utf8)
                let sent = reply.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                guard sent == reply.count else { return }
            }
            let count = recv(client, &chunk, chunk.count, 0)
            guard count > 0 else { return }
            received += chunk[0..<count]
        }
    }

    /// The command at the start of `bytes` (RESP: `*N`, then N bulk strings), as
    /// its words and its length in bytes; nil while it is not all there.
    static func command(at bytes: [UInt8]) -> (words: [String], length: Int)? {
        var i = 0
        func line() -> String? {
            guard let end = (i..<max(i, bytes.count - 1)).first(where: { bytes[$0] == 13 && bytes[$0 + 1] == 10 }) else { return nil }
            defer { i = end + 2 }
            return String(decoding: bytes[i..<end], as: UTF8.self)
        }
        guard let head = line(), head.first == "*", let count = Int(head.dropFirst()) else { return nil }
        var words: [String] = []
        for _ in 0..<count {
            guard let size = line(), size.first == "$", let length = Int(size.dropFirst()), i + length + 2 <= bytes.count else { return nil }
            words.append(String(decoding: bytes[i..<i + length], as: UTF8.self))
            i += length + 2
        }
        return (words, i)
    }
}
