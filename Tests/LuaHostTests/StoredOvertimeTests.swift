import CountdownCore
import Foundation
import LuaHost
import Testing

private let s = Time.nanosecondsPerSecond

/// One process on a virtual clock of its own (all start at the same instant),
/// sharing `store` with others; its hooks log to the Lua global `log`.
private final class Viewer {
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
            hooks = { on_tick = function(t) log[#log + 1] = ("tick %g +%g"):format(t.remaining, t.overtime) end,
                      on_done = function(t, why) log[#log + 1] = "done " .. why end }
            """)
    }

    func run(_ source: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let failure = host.runScript(source: Data(source.utf8), chunkName: "=test")
        #expect(failure == nil, "\(failure?.message ?? "")", sourceLocation: sourceLocation)
    }

    /// Expects the log to be `expected` (`assert` fails with it when it differs), and empties it.
    func expectLog(_ expected: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        let list = expected.map { "\"\($0)\"" }.joined(separator: ", ")
        run("""
            local want, got = { \(list) }, table.concat(log, "|")
            assert(table.concat(want, "|") == got, "log is: " .. got)
            log = {}
            """, sourceLocation: sourceLocation)
    }

    func advance(by seconds: Double) { scheduler.advance(clock, to: clock.boot + Nanoseconds(seconds * 1e9)) }
    var now: StoreInstant { StoreInstant(boot: clock.bootNow(), wall: clock.wallNow(), bootID: "boot-A") }
}

/// Issue 37: `persist` and `overtime` go together. The stored record says the
/// countdown runs into overtime, so a restarted process and a follower show the
/// same +time and tick on past the end.
@Suite("A stored overtime countdown: restarted and followed past its end")
struct StoredOvertimeTests {
    @Test("a restarted process fetches it past its end with the same +time, ticking on, and hears no second end")
    func restartedPastTheEnd() throws {
        let store = InMemoryCountdownStore()
        let a = Viewer(store: store)
        a.run(#"countdown.start{ id = "pomodoro", seconds = 2, persist = true, overtime = true, on_tick = hooks.on_tick, on_done = hooks.on_done }"#)
        a.advance(by: 5)
        a.expectLog(["tick 2 +0", "tick 1 +0", "done finished", "tick 0 +1", "tick 0 +2", "tick 0 +3"])
        let stored = try #require(try store.load(id: "pomodoro"))
        #expect(stored.overtime && stored.state == .running && stored.isPastEnd(at: a.now))
        #expect(stored.timeLeft(at: a.now) == -3 * s)

        // The restart: a new process at the same instant.
        let b = Viewer(store: store)
        b.advance(by: 5)
        b.run(#"h = countdown.fetch("pomodoro", { on_tick = hooks.on_tick, on_done = hooks.on_done }); assert(h:state() == "running")"#)
        b.expectLog(["tick 0 +3"])
        a.advance(by: 1.5)
        b.advance(by: 1.5)
        a.expectLog(["tick 0 +4"])
        b.expectLog(["tick 0 +4"])
        // Cancelled, it is gone from the store, and its end is not heard again.
        b.run("h:cancel()")
        b.expectLog([])
        #expect(try store.load(id: "pomodoro") == nil)
    }

    @Test("a follower reaches the end with it, hears it once, shows the same +time, and follows time added past the end")
    func followedPastTheEnd() throws {
        let store = InMemoryCountdownStore()
        let a = Viewer(store: store), b = Viewer(store: store)
        a.run(#"h = countdown.start{ id = "talk", seconds = 3, persist = true, overtime = true, on_tick = hooks.on_tick, on_done = hooks.on_done }"#)
        b.run(#"h = countdown.fetch("talk", { on_tick = hooks.on_tick, on_done = hooks.on_done })"#)
        a.advance(by: 5)
        b.advance(by: 5)
        for p in [a, b] { p.expectLog(["tick 3 +0", "tick 2 +0", "tick 1 +0", "done finished", "tick 0 +1", "tick 0 +2"]) }
        // Nothing to follow while both are past the end: the store's +time is theirs.
        b.host.store.applyChanges(.ids(["talk"]))
        b.expectLog([])
        // Time added past the end in one process counts down again in both.
        a.run("h:append(10)")
        a.expectLog(["tick 8 +0"])
        b.host.store.applyChanges(.ids(["talk"]))
        b.expectLog(["tick 8 +0"])
        a.advance(by: 10)
        b.advance(by: 10)
        for p in [a, b] { p.expectLog(["tick 7 +0", "tick 6 +0", "tick 5 +0", "tick 4 +0", "tick 3 +0", "tick 2 +0", "tick 1 +0",
                                        "done finished", "tick 0 +1", "tick 0 +2"]) }
    }

    @Test("paused past its end, the time past it is kept in the store: a restarted process shows it and goes on from it")
    func pausedPastTheEnd() throws {
        let store = InMemoryCountdownStore()
        let a = Viewer(store: store)
        a.run(#"h = countdown.start{ id = "p", seconds = 1, persist = true, overtime = true, on_tick = hooks.on_tick, on_done = hooks.on_done }"#)
        a.advance(by: 3)
        a.run("assert(h:pause())")
        a.expectLog(["tick 1 +0", "done finished", "tick 0 +1", "tick 0 +2", "tick 0 +2"])
        #expect(try store.load(id: "p")?.pausedRemaining == -2 * s)
        let b = Viewer(store: store)
        b.advance(by: 10)
        b.run(#"h = countdown.fetch("p", { on_tick = hooks.on_tick, on_done = hooks.on_done }); assert(h:state() == "paused")"#)
        b.run("assert(h:resume())")
        b.advance(by: 1)
        b.expectLog(["tick 0 +2", "tick 0 +3"])
    }

    @Test("h:append(-1) past the end of an overtime countdown returns nil and why, and changes nothing, stored or not")
    func takingOffPastTheEndIsRefused() throws {
        let store = InMemoryCountdownStore()
        let a = Viewer(store: store)
        a.run(#"""
            plain = countdown.start{ seconds = 1, overtime = true }
            kept = countdown.start{ id = "k", seconds = 1, persist = true, overtime = true }
            """#)
        a.advance(by: 3)
        let before = try store.load(id: "k")
        a.run(#"""
            for _, h in ipairs{ plain, kept } do
              local r, why = h:append(-1)
              assert(r == nil, "expected nil, got " .. tostring(r))
              assert(why:find("past its end, in overtime", 1, true), why)
              assert(h:state() == "running")
            end
            -- Before its end, time is taken off as ever, and it runs into its end.
            before = countdown.start{ seconds = 5, overtime = true }
            assert(before:append(-1) == before)
            """#)
        #expect(try store.load(id: "k") == before)
    }

    @Test("overtime and on_end_action do not go together: an overtime end runs no end action")
    func noEndAction() {
        let a = Viewer(store: InMemoryCountdownStore())
        a.run(#"""
            local ok, err = pcall(countdown.start, { id = "e", seconds = 1, persist = true, overtime = true, on_end_action = function() end })
            assert(not ok and err:find("'on_end_action' does not go with an overtime countdown", 1, true), tostring(err))
            """#)
    }
}
