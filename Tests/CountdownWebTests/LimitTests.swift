import CountdownCore
@testable import CountdownWeb
import Foundation
import Testing

@Suite("serve's bounds: connections, sizes, slow and idle clients")
struct LimitTests {
    let clock = TestClock()

    func server(_ configure: (inout ServerConfiguration) -> Void) throws -> TestServer {
        let clock = self.clock
        return try TestServer(clock: { clock.now }, configure: configure)
    }

    @Test("Request line and headers past the limit are answered 431")
    func headTooLarge() throws {
        let server = try server { $0.maxHeadBytes = 2048 }
        defer { server.stop() }
        let padding = String(repeating: "a", count: 4000)
        let reply = try server.request("GET", "/api/countdowns", authorized: false, headers: ["X-Padding: \(padding)"])
        #expect(reply.status == 431)
        let long = try server.request("GET", "/api/countdowns/" + padding, authorized: false)
        #expect(long.status == 431)
        #expect(try server.request("GET", "/api/countdowns", authorized: false).status == 200)
    }

    @Test("A body longer than the head limit is not counted as head: it arrives with its head in one read and is served")
    func bodyIsNotHead() throws {
        let server = try server { $0.maxHeadBytes = 1024; $0.maxBodyBytes = 8192 }
        defer { server.stop() }
        let id = String(repeating: "i", count: 3000)
        let reply = try server.request("POST", "/api/countdowns", body: #"{"id": "\#(id)", "duration": "1m"}"#)
        #expect(reply.status == 201)
        // And on a kept-alive connection, the second request's head is counted afresh.
        let connection = try RawHTTP(port: server.port)
        let get = "GET /api/countdowns HTTP/1.1\r\nHost: \(server.host)\r\nX-Pad: \(String(repeating: "p", count: 700))\r\n\r\n"
        try connection.send(get)
        #expect(connection.readUntil("\n]\n", timeout: 10).found)
        try connection.send(get.replacingOccurrences(of: "HTTP/1.1\r\n", with: "HTTP/1.1\r\nConnection: close\r\n"))
        let both = String(decoding: connection.readAll(), as: UTF8.self)
        #expect(both.components(separatedBy: "HTTP/1.1 200").count == 3)
        #expect(!both.contains("431"))
    }

    @Test("A body past the limit is answered 413, by its Content-Length or as it arrives")
    func bodyTooLarge() throws {
        let server = try server { $0.maxBodyBytes = 1000 }
        defer { server.stop() }
        let big = #"{"id": "x", "duration": "1m", "pad": ""# + String(repeating: "b", count: 2000) + "\"}"
        #expect(try server.request("POST", "/api/countdowns", body: big).status == 413)
        let chunked = "POST /api/countdowns HTTP/1.1\r\nHost: \(server.host)\r\nAuthorization: Bearer \(TestServer.token)\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "7d0\r\n" + String(repeating: "c", count: 2000) + "\r\n0\r\n\r\n"
        #expect(try RawHTTP.exchange(port: server.port, Array(chunked.utf8)).status == 413)
    }

    @Test("Past the connection cap a new connection gets 503 and the ones open are served")
    func connectionCap() throws {
        let server = try server { $0.maxConnections = 3 }
        defer { server.stop() }
        let held = try (0..<3).map { _ in try RawHTTP(port: server.port) }
        // The three are counted once the server has accepted them: the fourth is refused.
        var refused: HTTPReply?
        for _ in 0..<50 {
            let reply = try RawHTTP.parse(try RawHTTP(port: server.port).readAll(timeout: 5))
            if reply.status == 503 { refused = reply; break }
        }
        #expect(refused?.status == 503)
        try held[0].send("GET /api/countdowns HTTP/1.1\r\nHost: \(server.host)\r\nConnection: close\r\n\r\n")
        #expect(try RawHTTP.parse(held[0].readAll()).status == 200)
        // Closed connections free their places.
        var freed = false
        for _ in 0..<100 where !freed {
            freed = (try? server.request("GET", "/api/countdowns", authorized: false).status) == 200
            if !freed { usleep(20_000) }
        }
        #expect(freed)
    }

    @Test("A client that sends its request a byte now and then is cut off (408) without holding up another")
    func slowClient() throws {
        let server = try server { $0.requestTimeout = 1 }
        defer { server.stop() }
        let slow = try RawHTTP(port: server.port)
        try slow.send("GET /api/countdowns HTTP/1.1\r\n")
        let started = Date()
        // Meanwhile another client is served at once.
        #expect(try server.request("GET", "/api/countdowns", authorized: false).status == 200)
        #expect(Date().timeIntervalSince(started) < 1)
        for _ in 0..<3 {
            try? slow.send("X")
            usleep(200_000)
        }
        let reply = slow.readUntil("\r\n\r\n", timeout: 10)
        #expect(reply.text.hasPrefix("HTTP/1.1 408"))
        #expect(slow.closed(within: 10))
    }

    @Test("A header dripped a byte at a time is cut at the request timeout: not before it, and soon after it")
    func slowlorisIsCutAtTheTimeout() throws {
        let server = try server { $0.requestTimeout = 1.5; $0.idleTimeout = 60 }
        defer { server.stop() }
        let started = Date()
        let slow = try RawHTTP(port: server.port)
        try slow.send("GET /api/countdowns HTTP/1.1\r\nHost: \(server.host)\r\n")
        var answer = ""
        // A header byte every 0.1 s (the wait for an answer is the pause between bytes), for at most 20 s.
        while answer.isEmpty, Date().timeIntervalSince(started) < 20 {
            if let chunk = slow.read(timeout: 0.1) {
                answer = chunk.isEmpty ? "closed without an answer" : String(decoding: chunk, as: UTF8.self)
            } else {
                try? slow.send("X")
            }
        }
        let elapsed = Date().timeIntervalSince(started)
        #expect(answer.hasPrefix("HTTP/1.1 408"), "\(answer)")
        #expect(elapsed >= 1.5, "cut after \(elapsed) s, before the 1.5 s timeout")
        #expect(elapsed < 10, "cut only after \(elapsed) s")
    }

    @Test("An idle keep-alive connection is closed; an event stream stays open")
    func idleConnection() throws {
        let server = try server { $0.idleTimeout = 0.5; $0.requestTimeout = 60 }
        defer { server.stop() }
        let idle = try RawHTTP(port: server.port)
        try idle.send("GET /api/countdowns HTTP/1.1\r\nHost: \(server.host)\r\n\r\n")
        #expect(idle.readUntil("[]", timeout: 10).found)
        #expect(idle.closed(within: 10))
        let stream = try RawHTTP(port: server.port)
        try stream.send("GET /api/events HTTP/1.1\r\nHost: \(server.host)\r\n\r\n")
        #expect(stream.readUntil("snapshot", timeout: 10).found)
        #expect(!stream.closed(within: 1.5))
    }
}
