import CountdownCore
import EventLoop
import Foundation
import RedisTestServer
@testable import RedisStore
import Testing

/// "café" in NFC and in NFD: equal as Swift `String`s, two ids as bytes.
private let nfc = "caf\u{E9}"
private let nfd = "cafe\u{301}"
private let s: Int64 = 1_000_000_000

@Suite("Redis keeps ids as bytes, online and offline", .serialized)
struct RedisIDBytesTests: RedisSuite {
    let server: RedisServer

    init() throws { server = try RedisServer() }

    @Test("NFC and NFD are two countdowns: listed as two, each loaded, changed and removed on its own, online and offline")
    func twoCountdowns() throws {
        let store = try store()
        try store.save(record(nfc, seconds: 100))
        try store.save(record(nfd, seconds: 200))
        #expect(try server.cli("HLEN", "cdscript:countdowns") == "2")
        #expect(try store.list().map { Array($0.id.utf8) } == [Array(nfd.utf8), Array(nfc.utf8)], "two rows, in byte order")
        #expect(try store.load(id: nfc)?.total == 100 * s)
        #expect(try store.load(id: nfd)?.total == 200 * s)

        server.stop()
        // Offline, every answer comes from what this process last saw.
        #expect(try store.load(id: nfc)?.total == 100 * s)
        #expect(try store.load(id: nfd)?.total == 200 * s)
        #expect(store.isOffline)
        #expect(try store.list().count == 2)
        try store.modify(id: nfd) { $0?.total += 5 * s }
        #expect(try store.load(id: nfc)?.total == 100 * s, "a change to NFD reached NFC")
        #expect(try store.load(id: nfd)?.total == 205 * s)

        try server.start()
        #expect(store.reconnect())
        #expect(store.replayPending(forMilliseconds: 1000))
        let other = try self.store()
        #expect(try other.load(id: nfc)?.total == 100 * s)
        #expect(try other.load(id: nfd)?.total == 205 * s)
        #expect(try other.delete(id: nfc))
        #expect(try other.load(id: nfd) != nil)
    }
}
