import CountdownCore
import Foundation
import LuaHost
import Testing

/// A host on a virtual clock with the `clock` table, its hook errors collected.
private final class ClockHost {
    let clock = VirtualClock(boot: 0, wall: 1_798_761_600 * Time.nanosecondsPerSecond)
    let scheduler: Scheduler
    let host: LuaHost
    var reported: [String] = []

    init() {
        scheduler = Scheduler(clock: clock)
        host = LuaHost(scheduler: scheduler)
        host.timeZone = TimeZone(identifier: "UTC")!
        host.reportError = { [unowned self] in self.reported.append($0) }
        VirtualClockLibrary.install(in: host)
    }

    /// Runs Lua that checks itself with `assert`; returns the failure message, if any.
    func run(_ source: String) -> String? {
        host.runScript(source: Data(source.utf8), chunkName: "=spec")?.message
    }
}

@Suite("The clock table drives the scheduler on its virtual clock, synchronously")
struct VirtualClockLibraryTests {
    @Test("advance fires every due tick in order; a hook reads its tick's instant; advance returns the new time")
    func advance() {
        let h = ClockHost()
        #expect(h.run("""
            local seen = {}
            countdown.start{ seconds = 2, every = 0.5, on_tick = function(t)
              seen[#seen + 1] = clock.now() .. "=" .. t.remaining end }
            assert(clock.advance(1.2) == 1.2)
            assert(table.concat(seen, " ") == "0.0=2.0 0.5=1.5 1.0=1.0", table.concat(seen, " "))
            assert(clock.now() == 1.2)
            """) == nil)
        #expect(h.clock.boot == 1_200_000_000)
        #expect(h.host.vm.top == 0)
    }

    @Test("next moves to the next due tick; nil when nothing is scheduled")
    func next() {
        let h = ClockHost()
        #expect(h.run("""
            assert(clock.next() == nil)
            countdown.start{ seconds = 1.5, on_tick = function() end }
            assert(clock.next() == 0.5)
            assert(clock.next() == 1.5)
            assert(clock.next() == nil)
            """) == nil)
    }

    @Test("a hook error during advance is raised by advance, after the other due ticks fired, and not reported")
    func hookErrorRaised() {
        let h = ClockHost()
        #expect(h.run("""
            local good = 0
            countdown.start{ id = "bad", seconds = 5, on_tick = function(t) if t.remaining == 4 then error("broke") end end }
            countdown.start{ id = "good", seconds = 5, on_tick = function() good = good + 1 end }
            local ok, message = pcall(clock.advance, 2)
            assert(not ok)
            assert(message:find('error in on_tick of countdown "bad": spec:2: broke', 1, true), message)
            assert(message:find("stack traceback:", 1, true), message)
            assert(good == 3, good)
            assert(countdown.get("bad") == nil)
            """) == nil)
        #expect(h.reported.isEmpty)
        #expect(h.host.hookErrorCount == 1)
    }

    @Test("a hook error outside a clock call goes to reportError as before")
    func hookErrorReported() {
        let h = ClockHost()
        #expect(h.run("""
            countdown.start{ seconds = 5, on_tick = function() error("first tick") end }
            """) == nil)
        #expect(h.reported.count == 1)
        #expect(h.reported.first?.contains("first tick") == true)
    }

    @Test("run_all runs until no countdown is left, and raises at its limit")
    func runAll() {
        let h = ClockHost()
        #expect(h.run("""
            countdown.start{ seconds = 3 }
            assert(clock.run_all() == 3)
            local handle
            handle = countdown.start{ seconds = 1, on_done = function() handle:append(1) end }
            local ok, message = pcall(clock.run_all, { limit = 10 })
            assert(not ok)
            assert(message:find("run_all stopped after 10 ticks", 1, true), message)
            assert(not pcall(clock.run_all, { limit = 1.5 }))
            assert(not pcall(clock.run_all, 5))
            """) == nil)
    }

    @Test("set_wall jumps the wall clock and runs a pass: an `at` countdown whose date passed ends at once")
    func setWall() {
        let h = ClockHost()
        #expect(h.run("""
            clock.set_wall("2026-12-01T19:00:00Z")
            local reason
            local sale = countdown.start{ at = "2026-12-01T20:00:00Z", on_done = function(_, r) reason = r end }
            local timer = countdown.start{ seconds = 60 }
            clock.set_wall("2026-12-01T20:00:01Z")
            assert(reason == "finished")
            assert(timer:remaining() == 60)
            assert(clock.now() == 0)
            assert(clock.wall() == 1796155201, clock.wall())
            """) == nil)
    }

    @Test("stall moves time with no ticks, then one catch-up tick with missed")
    func stall() {
        let h = ClockHost()
        #expect(h.run("""
            local last
            countdown.start{ seconds = 10, on_tick = function(t) last = t end }
            assert(clock.stall(4.5) == 4.5)
            assert(last.missed == 3, last.missed) -- due at 1, 2, 3 and 4 s: one fires, three missed
            assert(last.remaining == 5.5, last.remaining)
            """) == nil)
    }

    @Test("the clock cannot be moved from inside a hook")
    func notFromHooks() {
        let h = ClockHost()
        #expect(h.run("""
            countdown.start{ seconds = 5, on_tick = function(t)
              if t.remaining == 4 then clock.advance(1) end end }
            local ok, message = pcall(clock.advance, 5)
            assert(not ok)
            assert(message:find("clock.advance cannot be called while a hook runs", 1, true), message)
            """) == nil)
        #expect(h.clock.boot == 5 * Time.nanosecondsPerSecond)
    }

    @Test("bad arguments are errors that say what was expected")
    func badArguments() {
        let h = ClockHost()
        let message = h.run("clock.advance(-1)")
        #expect(message?.hasPrefix("spec:1: clock.advance: seconds must be a finite number >= 0, got -1") == true)
        #expect(h.run("clock.set_wall({})")?.contains("clock.set_wall: expected a date") == true)
        #expect(h.run("clock.stall('x')")?.contains("clock.stall: expected a number of seconds, got string") == true)
    }
}
