import CountdownCore
import Foundation
import LuaHost
import Testing

private let s = Time.nanosecondsPerSecond

/// One process on a virtual clock, sharing `store` with others; its hooks log to
/// the Lua global `log`.
private final class Follower {
    let clock = VirtualClock(boot: 100 * s, wall: 1_800_000_000 * s)
    let scheduler: Scheduler
    let host: LuaHost

    init(store: CountdownStoreBackend) {
        scheduler = Scheduler(clock: clock)
        host = LuaHost(scheduler: scheduler)
        host.store.persistence = store
        host.store.bootID = "boot-A"
        run("""
            log = {}
            hooks = { on_tick = function(t) log[#log + 1] = ("tick %g"):format(t.remaining) end,
                      on_done = function(t, why) log[#log + 1] = "done " .. why end }
            """)
    }

    func run(_ source: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let failure = host.runScript(source: Data(source.utf8), chunkName: "=test")
        #expect(failure == nil, "\(failure?.message ?? "")", sourceLocation: sourceLocation)
    }

    func advance(by seconds: Int64) { scheduler.advance(clock, to: clock.boot + seconds * s) }
    var now: StoreInstant { StoreInstant(boot: clock.bootNow(), wall: clock.wallNow(), bootID: "boot-A") }
}

@Suite("A running process follows changes made to its stored countdowns elsewhere")
struct StoreFollowingTests {
    /// The log, read through a script (`assert` fails with it when it differs).
    private func expectLog(_ p: Follower, _ expected: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        let list = expected.map { "\"\($0)\"" }.joined(separator: ", ")
        p.run("""
            local want, got = { \(list) }, table.concat(log, "|")
            assert(table.concat(want, "|") == got, "log is: " .. got)
            log = {}
            """, sourceLocation: sourceLocation)
    }

    @Test("append, pause and resume made elsewhere fire on_tick at once with the new remaining time; nothing is applied twice")
    func appendPauseResume() throws {
        let store = InMemoryCountdownStore()
        let a = Follower(store: store)
        a.run(#"countdown.start{ id = "x", seconds = 10, persist = true, on_tick = hooks.on_tick, on_done = hooks.on_done }"#)
        a.advance(by: 2)
        expectLog(a, ["tick 10", "tick 9", "tick 8"])

        try store.modify(id: "x") { $0?.append(5 * s, at: a.now) }
        a.host.store.applyChanges(.ids(["x"]))
        expectLog(a, ["tick 13"])
        a.host.store.applyChanges(.unknown)
        a.host.store.applyChanges(.ids(["other"]))
        expectLog(a, [])

        // Its own change is in the store already: the feed's report of it changes nothing.
        a.run(#"countdown.get("x"):append(2)"#)
        a.run("log = {}")
        a.host.store.applyChanges(.ids(["x"]))
        expectLog(a, [])
        #expect(a.scheduler.remaining(a.host.store.persistentKey(forID: "x")!) == 15 * s)

        a.advance(by: 1)
        expectLog(a, ["tick 14"])
        try store.modify(id: "x") { $0?.pause(at: a.now) }
        a.host.store.applyChanges(.ids(["x"]))
        expectLog(a, ["tick 14"])
        a.advance(by: 3)
        expectLog(a, [])
        try store.modify(id: "x") { $0?.append(s / 2, at: a.now) }
        a.host.store.applyChanges(.ids(["x"]))
        expectLog(a, ["tick 14.5"])
        try store.modify(id: "x") { $0?.resume(at: a.now) }
        a.host.store.applyChanges(.ids(["x"]))
        expectLog(a, ["tick 14.5"])
        // Resumed off the alignment (14.5 left): the next tick re-aligns to whole seconds.
        a.advance(by: 1)
        expectLog(a, ["tick 14"])
    }

    @Test("removed elsewhere (cdscript cancel) ends it with on_done 'cancelled'; finished elsewhere ends it once, 'finished'")
    func cancelAndFinish() throws {
        let store = InMemoryCountdownStore()
        let a = Follower(store: store)
        a.run(#"countdown.start{ id = "c", seconds = 10, persist = true, on_tick = hooks.on_tick, on_done = hooks.on_done }"#)
        a.run(#"countdown.start{ id = "f", seconds = 10, persist = true, on_done = hooks.on_done }"#)
        a.run("log = {}")
        try store.delete(id: "c")
        a.host.store.applyChanges(.unknown)
        expectLog(a, ["done cancelled"])
        #expect(a.host.store.persistentKey(forID: "c") == nil)

        try store.modify(id: "f") { record in
            record?.state = .finished
            record?.pausedRemaining = nil
        }
        a.host.store.applyChanges(.ids(["f"]))
        a.host.store.applyChanges(.ids(["f"]))
        a.advance(by: 20)
        expectLog(a, ["done finished"])
        #expect(store.countdowns["f"]?.state == .finished)
        #expect(a.scheduler.activeCount == 0)
    }

    @Test("a countdown that is not persistent, or not held here, is never touched")
    func onlyHeldPersistentOnes() throws {
        let store = InMemoryCountdownStore()
        let a = Follower(store: store)
        a.run(#"countdown.start{ id = "mem", seconds = 10, on_tick = hooks.on_tick, on_done = hooks.on_done }"#)
        a.run("log = {}")
        try store.save(StoredCountdown(id: "mem", state: .running, kind: .duration, wallDeadline: a.now.wall + 99 * s,
                                       every: s, total: 99 * s, bootID: "boot-A", bootDeadline: a.now.boot + 99 * s, updatedAt: 0))
        a.host.store.applyChanges(.unknown)
        a.host.store.applyChanges(.ids(["mem"]))
        expectLog(a, [])
        #expect(a.host.store.persistentKey(forID: "mem") == nil)
        a.run(#"assert(countdown.get("mem"):remaining() == 10, "the countdown in memory changed")"#)
    }
}
