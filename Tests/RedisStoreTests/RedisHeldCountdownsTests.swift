import CountdownCore
import Foundation
import LuaHost
import RedisTestServer
@testable import RedisStore
import Testing

private let s = Time.nanosecondsPerSecond

/// A process that runs countdowns fetched from Redis: the store keeps no copy of
/// them (issue 53: 80 bytes a countdown beside the process's own), and asks the
/// process for what it last saw of them, with nothing lost while the server is
/// out of reach: changes made then keep what other processes changed meanwhile,
/// an end is stored, and what the server lost is written back.
@Suite("A Redis store leaves the countdowns a process runs to the process", .serialized)
struct RedisHeldCountdownsTests: RedisSuite {
    let server: RedisServer

    init() throws { server = try RedisServer() }

    /// Removes the stopped server's data: it starts again with nothing.
    func wipe() throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: server.directory) where name != "log" {
            try FileManager.default.removeItem(atPath: server.directory + "/" + name)
        }
    }

    @Test("A process that fetched 10,000 countdowns from Redis runs them all, and the store's copy keeps at most 2 bytes for each")
    func copyKeepsNoneOfTheHeld() throws {
        let n = 10_000
        let held = try HeldProcess(server: server)
        try held.other.saveAll((1...n).map { held.record("s\($0)", seconds: 100_000) })
        try held.run("held = {} for i = 1, \(n) do held[i] = assert(countdown.fetch('s' .. i)) end")
        #expect(held.scheduler.activeKeys.count == n)
        let perCountdown = Double(held.store.cache.storageBytes) / Double(n)
        // The index's 16 empty slots, nothing per countdown; with a record kept
        // for each (a 56-byte row, the id and the index) it was 80-131.
        #expect(perCountdown <= 2, "\(perCountdown) bytes a countdown in the store's copy")
        #expect(held.store.cache.entryCount == 0)
        #expect(held.errors.isEmpty, "\(held.errors)")
    }

    @Test("While the server is out of reach, an append and a pause to fetched countdowns are queued from what the process ran, and sent keep another process's append made before")
    func offlineChangesFromTheHeldView() throws {
        let held = try HeldProcess(server: server)
        try held.other.save(held.record("a", seconds: 100))
        try held.other.save(held.record("b", seconds: 100))
        try held.run("ha = assert(countdown.fetch('a')) hb = assert(countdown.fetch('b'))")
        // Another process appends 7 s to `a`, which this one has not followed yet.
        try held.other.modify(id: "a") { record in
            record?.total += 7 * s
            record?.wallDeadline += 7 * s
        }
        server.stop()
        try held.run("assert(ha:append(5)) assert(hb:pause())")
        #expect(held.store.pendingCountdowns == 2)
        try server.start()
        #expect(held.store.flush(withinMilliseconds: 10_000))
        let back = try store()
        #expect(try back.load(id: "a")?.total == 112 * s, "the other process's 7 s and this one's 5")
        #expect(try back.load(id: "b")?.state == .paused, "the pause made from the view as it was before it")
        #expect(held.errors.isEmpty, "\(held.errors)")
    }

    @Test("A fetched countdown that finishes while the server is out of reach is stored as finished once it is back")
    func offlineEndIsStored() throws {
        let held = try HeldProcess(server: server)
        try held.other.save(held.record("c", seconds: 10))
        try held.run("hc = assert(countdown.fetch('c'))")
        server.stop()
        held.scheduler.advance(held.clock, to: held.clock.bootNow() + 11 * s)
        #expect(held.scheduler.activeKeys.isEmpty)
        #expect(held.store.pendingCountdowns == 1)
        try server.start()
        #expect(held.store.flush(withinMilliseconds: 10_000))
        #expect(try store().load(id: "c")?.state == .finished)
        #expect(held.errors.isEmpty, "\(held.errors)")
    }

    @Test("A server that comes back without its data gets the fetched countdowns written back as the process runs them")
    func heldAreWrittenBack() throws {
        let held = try HeldProcess(server: server)
        try held.other.save(held.record("d", seconds: 100))
        try held.run("hd = assert(countdown.fetch('d')) assert(hd:append(3))")
        server.stop()
        try wipe()
        try server.start()
        // The next change finds the connection gone; the reconnection, the epoch changed.
        try held.run("assert(hd:append(1))")
        #expect(held.store.flush(withinMilliseconds: 10_000))
        #expect(held.store.lostIDs == ["d"])
        let back = try #require(try store().load(id: "d"))
        #expect(abs(back.total - 104 * s) < HeldProcess.clockSlack, "written back as this process runs it, the queued append in it: \(back)")
    }

    @Test("A host whose Lua state closes with a change queued leaves the store asking it nothing; a server back without its data gets the countdown written back as queued")
    func closedHostIsAskedNothing() throws {
        let held = try HeldProcess(server: server)
        try held.other.save(held.record("e", seconds: 100))
        try held.run("he = assert(countdown.fetch('e'))")
        #expect(held.store.cache.entryCount == 0)
        server.stop()
        try held.run("assert(he:append(2))")
        held.host.closeState()
        #expect(held.store.holder == nil)
        try wipe()
        try server.start()
        #expect(held.store.flush(withinMilliseconds: 10_000))
        #expect(held.store.lostIDs == ["e"])
        let back = try #require(try store().load(id: "e"))
        #expect(abs(back.total - 102 * s) < HeldProcess.clockSlack, "\(back)")
    }
}

/// A Lua host on a virtual clock whose persistent countdowns are kept in the
/// suite's Redis server, and a second store standing in for another process.
private final class HeldProcess {
    let clock = VirtualClock(boot: 100 * s, wall: 1_800_000_000 * s)
    let scheduler: Scheduler
    let host: LuaHost
    let store: RedisCountdownStore
    let other: RedisCountdownStore
    var errors: [String] = []
    /// How far the process's view of a total may be from the stored one here: the
    /// virtual clock stands still while the server's runs, so each store's reading
    /// of the server's clock is off by the real time between them (milliseconds,
    /// more on a busy machine); a second apart is an append lost or counted twice.
    static let clockSlack: Nanoseconds = s / 2

    init(server: RedisServer) throws {
        scheduler = Scheduler(clock: clock)
        host = LuaHost(scheduler: scheduler)
        // The stores read the host's clock: what they queue is dated on it, as in a real run.
        store = RedisCountdownStore(url: try RedisURL(server.url), clock: clock)
        try store.connect()
        other = RedisCountdownStore(url: try RedisURL(server.url), clock: clock)
        try other.connect()
        host.store.persistence = store
        host.store.bootID = "boot-A"
        host.reportError = { [unowned self] in errors.append($0) }
    }

    /// A countdown of `seconds` started now on this process's clocks.
    func record(_ id: String, seconds: Int64) -> StoredCountdown {
        StoredCountdown(id: id, state: .running, kind: .duration, wallDeadline: clock.wallNow() + seconds * s, every: s,
                        total: seconds * s, bootID: "boot-A", bootDeadline: clock.bootNow() + seconds * s,
                        updatedAt: clock.wallNow())
    }

    func run(_ source: String) throws {
        let failure = host.runScript(source: Data(source.utf8), chunkName: "=held")
        #expect(failure == nil, "\(failure.map { "\($0)" } ?? "")")
    }
}
