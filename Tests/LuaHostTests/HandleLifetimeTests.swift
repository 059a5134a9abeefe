import CountdownCore
import Foundation
import LuaHost
import Testing

@Suite("The host owns countdowns: dropping a handle never cancels one")
struct HandleLifetimeTests {
    @Test("a dropped, collected handle's countdown keeps ticking and finishes")
    func droppedHandleRuns() throws {
        let bed = LuaTestbed()
        bed.mustRun("""
            do
              countdown.start{seconds = 3,
                on_tick = function(t) print("tick", t.remaining) end,
                on_done = function(_, r) print("done", r) end}
            end
            collectgarbage("collect"); collectgarbage("collect")
            """)
        bed.advance(to: 1.5)
        bed.mustRun("collectgarbage('collect'); collectgarbage('collect')")
        try bed.runAll()
        #expect(bed.lines == ["tick 3.0", "tick 2.0", "tick 1.0", "done finished"])
    }

    @Test("a dropped handle can be found again with countdown.get and list")
    func droppedHandleFound() {
        let bed = LuaTestbed()
        bed.mustRun("""
            countdown.start{id = "lost", seconds = 3}
            collectgarbage(); collectgarbage()
            """)
        bed.advance(to: 1)
        #expect(bed.eval("countdown.get('lost'):state()") == "running")
        #expect(bed.eval("countdown.get('lost'):remaining()") == "2.0")
        #expect(bed.eval("countdown.list()[1] == countdown.get('lost')") == "true")
    }

    @Test("a handle held only weakly survives collection while its countdown runs")
    func weaklyHeldSurvives() {
        let bed = LuaTestbed()
        bed.mustRun("""
            weak = setmetatable({}, {__mode = "v"})
            weak[1] = countdown.start{seconds = 3}
            collectgarbage(); collectgarbage()
            """)
        #expect(bed.eval("weak[1] ~= nil and weak[1]:state()") == "running")
    }

    @Test("hooks of a dropped handle still see their upvalues")
    func hooksKeepUpvalues() throws {
        let bed = LuaTestbed()
        bed.mustRun("""
            do
              local count = 0
              countdown.start{seconds = 3, on_tick = function() count = count + 1 end,
                              on_done = function() print("count", count) end}
            end
            collectgarbage(); collectgarbage()
            """)
        try bed.runAll()
        #expect(bed.lines == ["count 3"])
    }

    @Test("the handle a hook captured is the one countdown.get returns")
    func capturedHandleIdentity() throws {
        let bed = LuaTestbed()
        bed.mustRun("""
            local h
            h = countdown.start{id = "me", seconds = 2, on_tick = function()
              print(h == countdown.get("me"))
            end}
            """)
        try bed.runAll()
        // The first tick runs inside start, before `h` is assigned.
        #expect(bed.lines == ["false", "true"])
    }

    @Test("a LuaHost can be released while countdowns are active")
    func hostReleased() {
        let clock = VirtualClock()
        let scheduler = Scheduler(clock: clock)
        do {
            let host = LuaHost(scheduler: scheduler)
            host.reportError = { _ in }
            #expect(host.runScript(source: Data("countdown.start{seconds = 5, on_tick = function() end}".utf8),
                                   chunkName: "=test") == nil)
        }
        #expect(scheduler.delegate == nil)
        scheduler.advance(clock, to: ns(10))
        #expect(scheduler.activeCount == 0)
    }
}
