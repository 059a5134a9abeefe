import CountdownCore
import EventLoop
import Foundation
import RedisTestServer
@testable import RedisStore
import Testing

private let s: Int64 = 1_000_000_000

/// What an outage leaves behind: queued changes, what the server keeps to make
/// changes idempotent, and a server that comes back empty.
@Suite("The Redis store through outages: replay, idempotence, a server that lost its data", .serialized)
struct RedisOutageTests: RedisSuite {
    let server: RedisServer

    init() throws { server = try RedisServer() }

    /// Stops the server and starts it again with nothing: no persistence files.
    func restartEmpty() throws {
        server.stop()
        for name in try FileManager.default.contentsOfDirectory(atPath: server.directory) where name != "log" {
            try FileManager.default.removeItem(atPath: server.directory + "/" + name)
        }
        try server.start()
        #expect(try server.cli("HLEN", "cdscript:countdowns") == "0")
    }

    @Test("200,000 changes queued during an outage: merged per countdown, replayed in short slices, every append counted once")
    func longOutageReplay() throws {
        let store = try store()
        let countdowns = 100, changes = 200_000
        for i in 0..<countdowns { try store.save(record("c\(i)", seconds: 1000)) }
        server.stop()
        let queueing = Date()
        for i in 0..<changes { try store.modify(id: "c\(i % countdowns)") { $0?.total += s } }
        let queueingSeconds = Date().timeIntervalSince(queueing)
        #expect(store.pendingCount == changes)
        #expect(store.pendingCountdowns == countdowns, "one entry per countdown: memory follows countdowns, not changes")
        try server.start()
        #expect(store.reconnect())
        let replay = Date()
        var slices = 0, longestSlice = 0.0
        while true {
            let slice = Date()
            let done = store.replayPending(forMilliseconds: 5)
            longestSlice = max(longestSlice, Date().timeIntervalSince(slice))
            slices += 1
            if done || slices > 100_000 { break }
        }
        let replaySeconds = Date().timeIntervalSince(replay)
        #expect(store.pendingCount == 0)
        // A slice sends for 5 ms and finishes the change it is in: on a busy
        // machine a few round trips more. A whole replay in one call took seconds.
        #expect(longestSlice < 0.5, "longest slice \(longestSlice) s")
        let other = try self.store()
        for i in 0..<countdowns {
            #expect(try other.load(id: "c\(i)")?.total == (1000 + Int64(changes / countdowns)) * s)
        }
        print("replay of \(changes) queued changes to \(countdowns) countdowns: queued in \(queueingSeconds) s, sent in \(replaySeconds) s over \(slices) slices, longest \(longestSlice * 1000) ms")
    }

    @Test("the queue counts against a memory budget: past it changes to more countdowns are refused (a store error), appends to queued ones still merge, and replay gives the memory back")
    func queueWithinMemoryLimit() throws {
        let store = try store()
        var used = 0
        let budget = 10 * PendingChanges.entryBytes(PendingChange(id: "c0", before: nil, after: nil, instant: 0, unconditional: false))
        store.chargeMemory = { bytes in
            guard bytes <= 0 || used + bytes <= budget else { return false }
            used += bytes
            return true
        }
        for i in 0..<11 { try store.save(record("c\(i)", seconds: 100)) }
        server.stop()
        for i in 0..<10 { try store.modify(id: "c\(i)") { $0?.total += s } }
        do {
            try store.modify(id: "c10") { $0?.total += s }
            Issue.record("an 11th countdown's change was queued past the budget")
        } catch {
            #expect("\(error)".contains("--memory-limit"), "\(error)")
        }
        for _ in 0..<1000 { try store.modify(id: "c3") { $0?.total += s } }
        #expect(store.pendingCountdowns == 10 && store.pendingCount == 1010)
        try server.start()
        #expect(store.reconnect())
        #expect(store.replayPending(forMilliseconds: 5000))
        #expect(used == 0, "the memory was given back")
        let other = try self.store()
        #expect(try other.load(id: "c3")?.total == 1101 * s)
        #expect(try other.load(id: "c10")?.total == 100 * s)
    }

    @Test("no key per change: after 500 changes the server holds the hash, the epoch and one writer key that expires")
    func noKeyPerChange() throws {
        let store = try store()
        try store.save(record("k", seconds: 100))
        for _ in 0..<500 { try store.modify(id: "k") { $0?.append(s, at: now) } }
        let keys = try server.cli("KEYS", "cdscript:*").split(separator: "\n").map(String.init).sorted()
        #expect(keys.count == 3, "\(keys)")
        #expect(keys.contains("cdscript:countdowns") && keys.contains("cdscript:epoch"))
        let writer = try #require(keys.first { $0.hasPrefix("cdscript:writer:") })
        let ttl = Int(try server.cli("TTL", writer)) ?? -1
        #expect(ttl > 86_000 && ttl <= 86_400)
        #expect(try server.cli("GET", writer) == "501")
    }

    @Test("a change sent again under its sequence number (its reply was lost) is applied once")
    func replayedOnce() throws {
        let store = try store()
        let created = record("once", seconds: 100)
        guard case .written = try store.runScript(id: "once", sequence: 1_000, expected: nil, new: created, unconditional: false) else {
            Issue.record("the first send was not written")
            return
        }
        var appended = created
        appended.total += 7 * s
        try server.cli("HSET", "cdscript:countdowns", "once", RedisRecord.encode(appended))
        // Sent again: the server must not create it again over what happened since.
        guard case .alreadyApplied = try store.runScript(id: "once", sequence: 1_000, expected: nil, new: created, unconditional: false) else {
            Issue.record("the second send was not recognized")
            return
        }
        #expect(try store.load(id: "once")?.total == 107 * s)
        let next = try store.runScript(id: "once", sequence: 1_001, expected: nil, new: created, unconditional: false)
        guard case .conflict = next else { Issue.record("a new change was taken for a replay: \(next)"); return }
    }

    @Test("a queued change that meets too many conflicting writes on replay is given up with a notice, not dropped in silence")
    func replayGivesUpAloud() throws {
        let store = try store()
        var notices: [String] = []
        store.notice = { notices.append($0) }
        // One conflict is too many: the first guess (what the change was computed
        // from) meets another process's write and is not tried again.
        store.attemptsPerChange = 1
        try store.save(record("fought", seconds: 100))
        server.stop()
        try store.modify(id: "fought") { $0?.total += s }
        #expect(store.pendingCount == 1)
        try server.start()
        let other = try self.store()
        try other.modify(id: "fought") { $0?.total += 7 * s }
        #expect(store.reconnect())
        #expect(store.replayPending(forMilliseconds: 5000))
        #expect(store.pendingCount == 0)
        #expect(notices.contains { $0.contains("could not apply a change to 'fought'") && $0.contains("gave up changing 'fought' after 1 conflicting writes") },
                "\(notices)")
        #expect(!notices.contains { $0.contains("made meanwhile applied") }, "a change given up is not counted as applied: \(notices)")
        #expect(try other.load(id: "fought")?.total == 107 * s, "the other process's change stands")
    }

    @Test("a server that comes back empty lost the countdowns: reported, written back, not cancelled; a real cancel still is one")
    func serverCameBackEmpty() throws {
        let store = try store()
        var notices: [String] = []
        store.notice = { notices.append($0) }
        let feed = RedisChangeFeed(store: store, timer: try LoopTimer())
        try store.save(record("kept", seconds: 100))
        try store.save(record("cancelled", seconds: 100))
        try store.modify(id: "kept") { $0?.append(5 * s, at: now) }
        // Cancelled elsewhere while the server was up: a cancel, not a loss.
        let other = try self.store()
        try other.delete(id: "cancelled")
        _ = try store.load(id: "cancelled")
        try restartEmpty()
        var changes = CountdownChanges.none
        let deadline = Date().addingTimeInterval(10)
        while changes != .unknown && Date() < deadline {
            var fds = feed.descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            _ = poll(&fds, nfds_t(fds.count), 100)
            changes = changes.merged(with: feed.drain())
        }
        #expect(changes == .unknown)
        #expect(store.lostIDs == ["kept"])
        #expect(notices.contains { $0.contains(#"the store lost countdown "kept""#) }, "\(notices)")
        let back = try self.store()
        #expect(try back.load(id: "kept")?.total == 105 * s, "written back as this process last had it")
        #expect(try back.load(id: "cancelled") == nil)
    }
}
