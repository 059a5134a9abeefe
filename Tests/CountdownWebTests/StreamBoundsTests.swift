import CountdownCore
@testable import CountdownWeb
import Foundation
import Testing

@Suite("Event streams stay bounded: a heartbeat while nothing changes, and a reader that does not read is dropped")
struct StreamBoundsTests {
    let clock = TestClock()

    func openStream(_ server: TestServer, receiveBuffer: Int32? = nil) throws -> RawHTTP {
        let stream = try RawHTTP(port: server.port, receiveBuffer: receiveBuffer)
        try stream.send("GET /api/events HTTP/1.1\r\nHost: \(server.host)\r\n\r\n")
        #expect(stream.readUntil("]}\n\n", timeout: 10).found)
        return stream
    }

    @Test("A stream opens with the heartbeat event, whose data is the interval in milliseconds, and gets it once per interval while nothing changes; with no stream open no heartbeat timer is set")
    func heartbeat() throws {
        let clock = self.clock
        let server = try TestServer(clock: { clock.now }) { $0.heartbeatInterval = 0.2 }
        defer { server.stop() }
        #expect(try server.server.heartbeatIsScheduled() == false)
        var stream: RawHTTP? = try openStream(server)
        #expect(try server.server.heartbeatIsScheduled())
        let beat = "event: heartbeat\ndata: 200\n\n"
        let opening = stream!.readUntil("]}\n\n", timeout: 1).text
        let announced = try #require(opening.range(of: beat), "\(opening.prefix(400))")
        #expect(announced.upperBound < opening.range(of: "\"snapshot\"")!.lowerBound, "the interval comes before the snapshot")
        stream!.drain(keep: 0)
        let next = stream!.readUntil(beat, timeout: 10)
        #expect(next.found)
        // A named event is no message: the pages' onmessage, like this reader of JSON data, does not see it.
        #expect(EventStreamTests.events(next.text).isEmpty)
        // Once the last stream is gone, so is the timer.
        stream = nil
        let deadline = Date().addingTimeInterval(10)
        while try server.server.eventStreamCount() > 0, Date() < deadline { usleep(10_000) }
        #expect(try server.server.eventStreamCount() == 0)
        #expect(try server.server.heartbeatIsScheduled() == false)
    }

    @Test("A silent server (the tests' stand-in for a stopped one) sends no heartbeat and answers no request until it speaks again, then answers what arrived meanwhile")
    func silentServer() throws {
        let clock = self.clock
        let server = try TestServer(clock: { clock.now }) { $0.heartbeatInterval = 0.2 }
        defer { server.stop() }
        let stream = try openStream(server)
        try server.server.setSilent(true)
        stream.drain(keep: 0)
        let request = try RawHTTP(port: server.port)
        try request.send("GET /api/countdowns HTTP/1.1\r\nHost: \(server.host)\r\nConnection: close\r\n\r\n")
        #expect(!stream.readUntil("heartbeat", timeout: 1).found)
        #expect(!request.readUntil("HTTP/1.1", timeout: 0.1).found)
        #expect(try server.server.eventStreamCount() == 1, "a silent server drops no one")
        try server.server.setSilent(false)
        #expect(request.readUntil("HTTP/1.1 200", timeout: 10).found)
        #expect(stream.readUntil("event: heartbeat", timeout: 10).found)
    }

    @Test("A client that never reads is dropped within 100 changes, and another client gets all 100 meanwhile")
    func nonReaderDoesNotStallOthers() throws {
        let clock = self.clock
        let server = try TestServer(clock: { clock.now }) { $0.maxUnsentStreamBytes = 8 * 1024 }
        defer { server.stop() }
        // A long id makes every event about 2 KB: 100 of them are far more than the bounds hold.
        let id = String(repeating: "t", count: 2000)
        try server.store(running(id, seconds: 180, at: clock.now))
        let reader = try openStream(server)
        let stalled = try openStream(server, receiveBuffer: 4096)
        #expect(try server.server.eventStreamCount() == 2)
        let started = Date()
        for _ in 0..<100 {
            try server.server.withStore { store in
                _ = try store.modify(id: id) { record in _ = record?.append(Time.nanosecondsPerSecond, at: clock.now) }
            }
            reader.drain()
        }
        #expect(try server.server.eventStreamCount() == 1)
        _ = stalled
        // The reader got the last change (180 s plus 100 appends), in a bounded time.
        #expect(reader.readUntil("\"remaining\" : 280,", timeout: 10).found)
        #expect(Date().timeIntervalSince(started) < 20)
    }
}
