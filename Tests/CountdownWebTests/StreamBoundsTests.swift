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

    @Test("An open stream gets a heartbeat comment while nothing changes; with no stream open no heartbeat timer is set")
    func heartbeat() throws {
        let clock = self.clock
        let server = try TestServer(clock: { clock.now }) { $0.heartbeatInterval = 0.2 }
        defer { server.stop() }
        #expect(try server.server.heartbeatIsScheduled() == false)
        var stream: RawHTTP? = try openStream(server)
        #expect(try server.server.heartbeatIsScheduled())
        let beat = stream!.readUntil(": heartbeat\n\n", timeout: 10)
        #expect(beat.found)
        // A comment is no event: the page's EventSource ignores it.
        #expect(EventStreamTests.events(beat.text).map { $0["event"] as? String } == ["snapshot"])
        // Once the last stream is gone, so is the timer.
        stream = nil
        let deadline = Date().addingTimeInterval(10)
        while try server.server.eventStreamCount() > 0, Date() < deadline { usleep(10_000) }
        #expect(try server.server.eventStreamCount() == 0)
        #expect(try server.server.heartbeatIsScheduled() == false)
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
