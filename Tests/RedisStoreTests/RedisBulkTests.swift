import CountdownCore
import EventLoop
import Foundation
import RedisTestServer
@testable import RedisStore
import Testing

@Suite("The Redis store saves and reads many at once, and a change costs a follower what changed", .serialized)
struct RedisBulkTests: RedisSuite {
    let server: RedisServer

    init() throws { server = try RedisServer() }

    /// What the feed reports within `timeout` seconds, merged.
    private func changes(_ feed: RedisChangeFeed, until wanted: CountdownChanges, within timeout: Double = 3) -> CountdownChanges {
        var seen = CountdownChanges.none
        let deadline = Date().addingTimeInterval(timeout)
        while seen != wanted && Date() < deadline {
            var fds = feed.descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            _ = poll(&fds, nfds_t(fds.count), 100)
            seen = seen.merged(with: feed.drain())
        }
        return seen
    }

    @Test("saveAll stores 2,500 countdowns in pipelined slices, each one published")
    func saveAllPipelined() throws {
        let s = try store()
        let t = now
        let records = (0..<2_500).map { record("s\($0)", seconds: 60, now: t) }
        try s.saveAll(records)
        #expect(try s.list().count == 2_500)
        let other = try store()
        #expect(try other.load(id: "s2499")?.total == 60 * Time.nanosecondsPerSecond)
    }

    @Test("loadEach reads 2,500 ids in slices: every record once, the missing ones as nil")
    func loadEachInSlices() throws {
        let s = try store()
        let t = now
        try s.saveAll((0..<2_500).map { record("s\($0)", seconds: 60, now: t) })
        let reader = try store()
        let ids = (0..<2_500).map { "s\($0)" } + ["missing"]
        let loaded = try reader.loadEach(ids: ids)
        #expect(loaded.count == 2_501)
        #expect(try loaded.allSatisfy { try $0.record.get()?.id == ($0.id == "missing" ? nil : $0.id) })
        #expect(reader.recordsRead == 2_501)
    }

    @Test("one change elsewhere is reported by its id alone to a process holding 2,000, which then reads one record")
    func oneChangeOneRead() throws {
        let mine = try store()
        let t = now
        try mine.saveAll((0..<2_000).map { record("s\($0)", seconds: 60, now: t) })
        let feed = RedisChangeFeed(store: mine, timer: try LoopTimer())
        let other = try store()
        try other.modify(id: "s9") { $0?.append(Time.nanosecondsPerSecond, at: t) }
        let seen = changes(feed, until: .ids(["s9"]))
        #expect(seen == .ids(["s9"]))
        guard case .ids(let ids) = seen else { return }
        let before = mine.recordsRead
        _ = try mine.loadEach(ids: ids.map(\.string))
        #expect(mine.recordsRead - before == 1)
    }

    @Test("after a process loads all 3,000 one by one (read ahead), the first change it sees lets go of no copy: the copy went with the last load")
    func firstChangeAfterLoadingAll() throws {
        let mine = try store()
        let t = now
        try mine.saveAll((0..<3_000).map { record("s\($0)", seconds: 60, now: t) })
        let feed = RedisChangeFeed(store: mine, timer: try LoopTimer())
        _ = changes(feed, until: .none, within: 0.2)
        #expect(mine.feedSubscribed)
        for i in 0..<3_000 { #expect(try mine.load(id: "s\(i)")?.id == "s\(i)") }
        #expect(mine.readAheadSpent, "the loads were answered from a copy read ahead, used up")
        #expect(mine.readAheadCopy == nil)
        let other = try store()
        try other.modify(id: "s9") { $0?.append(Time.nanosecondsPerSecond, at: t) }
        #expect(changes(feed, until: .ids(["s9"])) == .ids(["s9"]))
        #expect(mine.readAheadDroppedAtDrain == 0, "\(mine.readAheadDroppedAtDrain) entries let go at the first change")

        // Loads that stop half way leave a copy, which the next drain lets go: the counter tells.
        for i in 0..<1_500 { _ = try mine.load(id: "s\(i)") }
        try other.modify(id: "s8") { $0?.append(Time.nanosecondsPerSecond, at: t) }
        #expect(changes(feed, until: .ids(["s8"])) == .ids(["s8"]))
        #expect(mine.readAheadDroppedAtDrain == 3_000)
    }
}
