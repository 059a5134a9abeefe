import CountdownCore
@testable import CountdownWeb
import Foundation
import Testing

@Suite("The event stream: a snapshot on connect, then one event per change")
struct EventStreamTests {
    let clock = TestClock()

    /// The JSON objects of the `data:` lines of every complete event in `text`
    /// (read off the socket: the chunk-size lines of the chunked encoding are
    /// lines of their own once the CRs are gone, and are not `data:` lines).
    static func events(_ text: String) -> [[String: Any]] {
        text.replacingOccurrences(of: "\r", with: "").components(separatedBy: "\n\n").compactMap { block in
            let data = block.split(separator: "\n").filter { $0.hasPrefix("data: ") }.map { $0.dropFirst(6) }.joined(separator: "\n")
            guard !data.isEmpty else { return nil }
            return try? JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any]
        }
    }

    func openStream(_ server: TestServer, receiveBuffer: Int32? = nil) throws -> RawHTTP {
        let stream = try RawHTTP(port: server.port, receiveBuffer: receiveBuffer)
        try stream.send("GET /api/events HTTP/1.1\r\nHost: \(server.host)\r\n\r\n")
        #expect(stream.readUntil("\"snapshot\"", timeout: 10).found)
        #expect(stream.readUntil("]}\n\n", timeout: 10).found)
        return stream
    }

    @Test("The snapshot holds every countdown in the listing's shape and the server's clock")
    func snapshot() throws {
        let clock = self.clock
        let server = try TestServer(clock: { clock.now })
        defer { server.stop() }
        try server.store(running("tea", seconds: 180, at: clock.now))
        let stream = try openStream(server)
        let (_, text) = stream.readUntil("]}\n\n", timeout: 10)
        #expect(text.contains("Content-Type: text/event-stream"))
        let first = try #require(Self.events(text).first)
        #expect(first["event"] as? String == "snapshot")
        #expect((first["now"] as? NSNumber)?.int64Value == clock.now.wall / 1_000_000)
        let countdowns = try #require(first["countdowns"] as? [[String: Any]])
        #expect(countdowns.map { $0["id"] as? String } == ["tea"])
        #expect(countdowns[0]["remaining"] as? Double == 180)
    }

    @Test("A change made through the API reaches an open stream")
    func apiChangeIsPushed() throws {
        let clock = self.clock
        let server = try TestServer(clock: { clock.now })
        defer { server.stop() }
        try server.store(running("tea", seconds: 180, at: clock.now))
        let stream = try openStream(server)
        #expect(try server.request("POST", "/api/countdowns/tea/append", body: #"{"duration": "1m"}"#).status == 200)
        #expect(stream.readUntil("\"append\"", timeout: 10).found)
        let event = try #require(Self.events(stream.readUntil("}}\n\n", timeout: 10).text).last)
        #expect(event["event"] as? String == "append")
        #expect(event["id"] as? String == "tea")
        #expect((event["countdown"] as? [String: Any])?["remaining"] as? Double == 240)
        #expect(try server.request("POST", "/api/countdowns/tea/pause").status == 200)
        #expect(stream.readUntil("\"pause\"", timeout: 10).found)
        #expect(try server.request("POST", "/api/countdowns/tea/resume").status == 200)
        #expect(stream.readUntil("\"resume\"", timeout: 10).found)
        #expect(try server.request("POST", "/api/countdowns", body: #"{"id": "egg", "duration": "5m"}"#).status == 201)
        #expect(stream.readUntil("\"new\"", timeout: 10).found)
        #expect(try server.request("POST", "/api/countdowns/tea/cancel").status == 200)
        #expect(stream.readUntil("\"cancel\"", timeout: 10).found)
    }

    @Test("A change another process made reaches the stream when the change feed reports it")
    func storeChangeIsPushed() throws {
        let clock = self.clock
        let server = try TestServer(clock: { clock.now })
        defer { server.stop() }
        let stream = try openStream(server)
        // Written behind the server's back, then reported as a change feed would.
        let record = running("pizza", seconds: 600, at: clock.now)
        try server.server.withStore(notify: false) { try $0.save(record) }
        #expect(!stream.readUntil("\"pizza\"", timeout: 0.3).found)
        server.server.storeChanged(.ids([CountdownID("pizza")]))
        let text = stream.readUntil("\"new\"", timeout: 10).text
        #expect(Self.events(text).contains { $0["event"] as? String == "new" && $0["id"] as? String == "pizza" })
    }

    @Test("An end by time alone is pushed by the server's one timer")
    func endIsPushed() throws {
        let real = RealClock()
        let server = try TestServer(clock: { real.now })
        defer { server.stop() }
        try server.store(running("soon", seconds: 0.3, at: real.now))
        try server.store(running("over", seconds: 0.3, at: real.now, overtime: true))
        let stream = try openStream(server)
        let text = stream.readUntil("\"overtime\",\"now\"", timeout: 10).text + stream.readUntil("\"end\"", timeout: 10).text
        #expect(text.contains("\"end\""))
        #expect(text.contains("\"overtime\",\"now\""))
    }

    @Test("A reader that does not keep up is disconnected, and the others get every change")
    func slowReaderIsDropped() throws {
        let clock = self.clock
        let server = try TestServer(clock: { clock.now })
        defer { server.stop() }
        try server.store(running("tea", seconds: 180, at: clock.now))
        let reader = try openStream(server)
        let stalled = try openStream(server, receiveBuffer: 4096)
        #expect(try server.server.eventStreamCount() == 2)
        // `stalled` never reads again: its socket fills, then the server's buffer past its high-water mark.
        var appends = 0
        while try server.server.eventStreamCount() == 2, appends < 50_000 {
            try server.server.withStore { store in
                _ = try store.modify(id: "tea") { record in _ = record?.append(Time.nanosecondsPerSecond, at: clock.now) }
            }
            appends += 1
            // The reader keeps up.
            if appends % 50 == 0 { reader.drain() }
        }
        #expect(try server.server.eventStreamCount() == 1)
        // The last change reached the reader: its remaining time is 180 s plus every append.
        #expect(reader.readUntil("\"remaining\" : \(180 + appends),", timeout: 10).found)
        _ = stalled
    }

    @Test("Many streams each get the change")
    func manyStreams() throws {
        let clock = self.clock
        let server = try TestServer(clock: { clock.now })
        defer { server.stop() }
        try server.store(running("tea", seconds: 180, at: clock.now))
        let streams = try (0..<50).map { _ in try openStream(server) }
        #expect(try server.server.eventStreamCount() == 50)
        #expect(try server.request("POST", "/api/countdowns/tea/pause").status == 200)
        for stream in streams { #expect(stream.readUntil("\"pause\"", timeout: 10).found) }
    }
}
