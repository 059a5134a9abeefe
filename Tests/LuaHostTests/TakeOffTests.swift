import CountdownCore
import Foundation
import LuaHost
import Testing

/// Issue 29, "Taking time off": `h:append(-s)` takes s seconds off; taking off
/// all that is left ends the countdown once with `on_done(t, "finished")`,
/// running or paused, with or without an id, persistent or not; a process that
/// follows a stored countdown ends it once when time taken off elsewhere leaves nothing.
@Suite("h:append with a negative number takes time off")
struct TakeOffTests {
    static let hooks = """
        on_tick = function(t) print("tick", t.remaining) end,
        on_done = function(t, why) print("done", why, t.remaining, t.progress) end
        """

    @Test("taking off part of what is left moves the end earlier; on_tick fires at once")
    func shortens() throws {
        let bed = LuaTestbed()
        bed.mustRun("h = countdown.start{seconds = 10, \(Self.hooks)}")
        bed.advance(to: 2)
        bed.mustRun("print(h:append(-5) == h, h:state(), h:remaining())")
        try bed.runAll()
        #expect(bed.lines == ["tick 10.0", "tick 9.0", "tick 8.0", "tick 3.0", "true running 3.0",
                              "tick 2.0", "tick 1.0", "done finished 0.0 1.0"])
        #expect(bed.now == 5)
    }

    @Test("taking off more than is left ends it at once, finished, once", arguments: ["", #"id = "x", "#])
    func endsOnce(id: String) throws {
        let bed = LuaTestbed()
        bed.mustRun("h = countdown.start{\(id)seconds = 10, \(Self.hooks)}")
        bed.advance(to: 4)
        bed.mustRun("print(h:append(-30) == h, h:state(), h:remaining())")
        #expect(bed.takeLines() == ["tick 10.0", "tick 9.0", "tick 8.0", "tick 7.0", "tick 6.0",
                                    "done finished 0.0 1.0", "true finished 0.0"])
        try bed.runAll()
        #expect(bed.takeLines() == [])
        #expect(bed.scheduler.activeCount == 0)
        if !id.isEmpty { #expect(bed.eval("countdown.get('x') == nil") == "true") }
    }

    @Test("a paused countdown taken down to nothing ends at once, finished, once")
    func pausedEnds() throws {
        let bed = LuaTestbed()
        bed.mustRun("h = countdown.start{id = 'p', seconds = 10, \(Self.hooks)}")
        bed.advance(to: 1)
        bed.mustRun("h:pause(); h:append(-3)")
        #expect(bed.eval("h:remaining()") == "6.0")
        #expect(bed.eval("h:state()") == "paused")
        bed.mustRun("h:append(-6)")
        #expect(bed.eval("h:state()") == "finished")
        #expect(bed.eval("h:resume()") == "false")
        try bed.runAll()
        #expect(bed.lines.filter { $0.hasPrefix("done") } == ["done finished 0.0 1.0"])
    }

    @Test("taking time off a countdown that has ended does nothing: no restart, no second end")
    func endedStaysEnded() throws {
        let bed = LuaTestbed()
        bed.mustRun("h = countdown.start{id = 'e', seconds = 2, \(Self.hooks)}")
        try bed.runAll()
        bed.takeLines()
        bed.mustRun("print(h:append(-1) == h, h:state())")
        try bed.runAll()
        #expect(bed.takeLines() == ["true finished"])
        #expect(bed.scheduler.activeCount == 0)
    }

    @Test("its own on_tick may take all that is left: the end comes once, after that tick returns")
    func fromOwnTick() throws {
        let bed = LuaTestbed()
        bed.mustRun("""
            h = countdown.start{seconds = 10, on_tick = function(t)
                print("tick", t.remaining)
                if t.remaining == 8 then print(h:append(-100) == h, h:state()) end
              end,
              on_done = function(t, why) print("done", why) end}
            """)
        try bed.runAll()
        #expect(bed.lines == ["tick 10.0", "tick 9.0", "tick 8.0", "done finished", "true finished"])
        #expect(bed.errors.isEmpty, "\(bed.errors)")
    }

    @Test("a persistent countdown taken down to nothing is finished in the store")
    func persistentFinished() throws {
        let store = InMemoryCountdownStore()
        let bed = LuaTestbed()
        bed.host.store.persistence = store
        bed.host.store.bootID = "boot"
        bed.mustRun("h = countdown.start{id = 'tea', seconds = 60, persist = true, \(Self.hooks)}")
        bed.advance(to: 5)
        bed.mustRun("h:append(-20)")
        let shortened = try #require(store.countdowns["tea"])
        #expect(shortened.state == .running)
        #expect(shortened.total == 40 * Time.nanosecondsPerSecond)
        bed.mustRun("h:append(-60)")
        #expect(store.countdowns["tea"]?.state == .finished)
        // Never a negative length in the store (a store refuses to read one back):
        // the length keeps what elapsed.
        #expect(store.countdowns["tea"]?.total == 5 * Time.nanosecondsPerSecond)
        try bed.runAll()
        #expect(bed.lines.filter { $0.hasPrefix("done") } == ["done finished 0.0 1.0"])
        #expect(bed.errors.isEmpty, "\(bed.errors)")
    }

    @Test("taking all off a countdown removed from the store meanwhile ends it here and does not store it again")
    func removedMeanwhile() throws {
        let store = InMemoryCountdownStore()
        let bed = LuaTestbed()
        bed.host.store.persistence = store
        bed.host.store.bootID = "boot"
        bed.mustRun("h = countdown.start{id = 'gone', seconds = 60, persist = true, \(Self.hooks)}")
        try store.delete(id: "gone")
        bed.mustRun("h:append(-60)")
        #expect(store.countdowns["gone"] == nil)
        #expect(bed.lines.filter { $0.hasPrefix("done") } == ["done finished 0.0 1.0"])
        #expect(bed.errors.isEmpty, "\(bed.errors)")
    }
}

private let second = Time.nanosecondsPerSecond

/// One process on its own virtual clock, sharing `store` with others.
private final class Process {
    let clock = VirtualClock(boot: 100 * second, wall: 1_800_000_000 * second)
    let scheduler: Scheduler
    let host: LuaHost

    init(store: CountdownStoreBackend) {
        scheduler = Scheduler(clock: clock)
        host = LuaHost(scheduler: scheduler)
        host.store.persistence = store
        host.store.bootID = "boot-A"
        run("""
            log = {}
            hooks = { on_done = function(t, why) log[#log + 1] = "done " .. why end }
            """)
    }

    func run(_ source: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let failure = host.runScript(source: Data(source.utf8), chunkName: "=test")
        #expect(failure == nil, "\(failure?.message ?? "")", sourceLocation: sourceLocation)
    }

    /// Checks the log (joined by "|") in Lua and empties it.
    func expectLog(_ expected: String, sourceLocation: SourceLocation = #_sourceLocation) {
        run("""
            local got = table.concat(log, "|")
            assert(got == "\(expected)", "log is: " .. got)
            log = {}
            """, sourceLocation: sourceLocation)
    }

    var now: StoreInstant { StoreInstant(boot: clock.bootNow(), wall: clock.wallNow(), bootID: "boot-A") }
}

@Suite("Time taken off elsewhere reaches a process that holds the countdown")
struct TakeOffElsewhereTests {
    @Test("another process's h:append(-30) ends it here once, finished", arguments: [false, true])
    func anotherProcessTakesAll(paused: Bool) throws {
        let store = InMemoryCountdownStore()
        let a = Process(store: store)
        a.run(#"countdown.start{ id = "x", seconds = 10, persist = true, on_done = hooks.on_done }"#)
        if paused { a.run(#"countdown.get("x"):pause()"#) }
        let b = Process(store: store)
        b.run(#"countdown.fetch("x", { on_done = hooks.on_done }):append(-30)"#)
        b.expectLog("done finished")
        a.host.store.applyChanges(.ids(["x"]))
        a.host.store.applyChanges(.unknown)
        a.scheduler.advance(a.clock, to: a.clock.boot + 20 * second)
        a.expectLog("done finished")
        #expect(a.scheduler.activeCount == 0)
        #expect(store.countdowns["x"]?.state == .finished)
    }

    @Test("a stored append of minus more than is left (cdscript append ID -30) ends it here once, finished", arguments: [false, true])
    func storedTakeOff(paused: Bool) throws {
        let store = InMemoryCountdownStore()
        let a = Process(store: store)
        a.run(#"countdown.start{ id = "x", seconds = 10, persist = true, on_done = hooks.on_done }"#)
        if paused { a.run(#"countdown.get("x"):pause()"#) }
        try store.modify(id: "x") { $0?.append(-30 * second, at: a.now) }
        a.host.store.applyChanges(.ids(["x"]))
        a.host.store.applyChanges(.ids(["x"]))
        a.scheduler.advance(a.clock, to: a.clock.boot + 20 * second)
        a.expectLog("done finished")
        #expect(a.scheduler.activeCount == 0)
    }
}
