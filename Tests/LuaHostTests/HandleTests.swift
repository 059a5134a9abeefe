import Testing

@Suite("Countdown handles: h.id, h:pause, h:resume, h:cancel, h:remaining, h:state")
struct HandleTests {
    @Test("h.id is the id given, nil for an anonymous countdown")
    func id() {
        let bed = LuaTestbed()
        bed.mustRun("""
            a = countdown.start{id = "sale", seconds = 5}
            b = countdown.start{seconds = 5}
            """)
        #expect(bed.eval("a.id") == "sale")
        #expect(bed.eval("b.id") == "nil")
        #expect(bed.eval("a.no_such_field") == "nil")
    }

    @Test("tostring(h) names the countdown and its state")
    func tostringHandle() {
        let bed = LuaTestbed()
        bed.mustRun("""
            a = countdown.start{id = "sale", seconds = 5}
            b = countdown.start{seconds = 5}
            """)
        #expect(bed.eval("a") == #"countdown "sale" (running)"#)
        #expect(bed.eval("b") == "countdown anonymous (running)")
        bed.mustRun("a:pause()")
        #expect(bed.eval("a") == #"countdown "sale" (paused)"#)
    }

    @Test("the handle metatable is locked")
    func lockedMetatable() {
        let bed = LuaTestbed()
        bed.mustRun("h = countdown.start{seconds = 5}")
        #expect(bed.eval("getmetatable(h)") == "locked")
        #expect(bed.eval("pcall(setmetatable, h, {})") == "false")
    }

    @Test("h:state() goes running, paused, running, finished")
    func stateStrings() throws {
        let bed = LuaTestbed()
        bed.mustRun("h = countdown.start{seconds = 3}")
        #expect(bed.eval("h:state()") == "running")
        bed.mustRun("h:pause()")
        #expect(bed.eval("h:state()") == "paused")
        bed.mustRun("h:resume()")
        #expect(bed.eval("h:state()") == "running")
        try bed.runAll()
        #expect(bed.eval("h:state()") == "finished")
    }

    @Test("h:state() is \"cancelled\" after h:cancel()")
    func cancelledState() {
        let bed = LuaTestbed()
        bed.mustRun("h = countdown.start{seconds = 3}; h:cancel()")
        #expect(bed.eval("h:state()") == "cancelled")
    }

    @Test("h:pause() and h:resume() return whether they changed anything")
    func pauseResumeBooleans() throws {
        let bed = LuaTestbed()
        bed.mustRun("""
            h = countdown.start{seconds = 3}
            print(h:resume(), h:pause(), h:pause(), h:resume(), h:resume())
            """)
        #expect(bed.lines == ["false true false true false"])
        try bed.runAll()
        #expect(bed.eval("h:pause()") == "false")
        #expect(bed.eval("h:resume()") == "false")
    }

    @Test("a paused countdown freezes: no ticks, remaining unchanged, its end moves later")
    func pauseFreezes() throws {
        let bed = LuaTestbed()
        bed.mustRun("""
            h = countdown.start{seconds = 5,
              on_tick = function(t) print("tick", t.remaining) end,
              on_done = function(_, r) print(r) end}
            """)
        bed.advance(to: 2.5)
        bed.mustRun("h:pause()")
        // pause calls on_tick at once with the frozen time (issue 13).
        #expect(bed.takeLines() == ["tick 5.0", "tick 4.0", "tick 3.0", "tick 2.5"])
        bed.advance(to: 100)
        #expect(bed.takeLines() == [])
        #expect(bed.eval("h:remaining()") == "2.5")
        bed.mustRun("h:resume()")
        try bed.runAll()
        #expect(bed.takeLines() == ["tick 2.5", "tick 2.0", "tick 1.0", "finished"])
        #expect(bed.now == 102.5)
    }

    @Test("h:cancel() calls on_done(t, \"cancelled\") once and stops the ticks")
    func cancelCallsDoneOnce() {
        let bed = LuaTestbed()
        bed.mustRun("""
            h = countdown.start{seconds = 5,
              on_tick = function(t) print("tick", t.remaining) end,
              on_done = function(_, reason) print("done", reason) end}
            """)
        bed.advance(to: 1)
        bed.mustRun("print(h:cancel()); print(h:cancel())")
        bed.advance(to: 60)
        #expect(bed.lines == ["tick 5.0", "tick 4.0", "done cancelled", "true", "false"])
        #expect(bed.scheduler.activeCount == 0)
    }

    @Test("cancelling a finished countdown does nothing")
    func cancelFinished() throws {
        let bed = LuaTestbed()
        bed.mustRun(#"h = countdown.start{seconds = 1, on_done = function(_, r) print(r) end}"#)
        try bed.runAll()
        bed.mustRun("print(h:cancel())")
        #expect(bed.lines == ["finished", "false"])
        #expect(bed.eval("h:state()") == "finished")
    }

    @Test("a paused countdown can be cancelled")
    func cancelPaused() {
        let bed = LuaTestbed()
        bed.mustRun(#"h = countdown.start{seconds = 5, on_done = function(t, r) print(r, t.remaining) end}"#)
        bed.advance(to: 1)
        bed.mustRun("h:pause(); print(h:cancel())")
        #expect(bed.lines == ["cancelled 4.0", "true"])
        #expect(bed.eval("h:state()") == "cancelled")
    }

    @Test("h:remaining() counts down between ticks and is 0, never negative, once ended")
    func remaining() throws {
        let bed = LuaTestbed()
        bed.mustRun("h = countdown.start{seconds = 3}; c = countdown.start{seconds = 3}")
        #expect(bed.eval("h:remaining()") == "3.0")
        bed.advance(to: 1.25)
        #expect(bed.eval("h:remaining()") == "1.75")
        bed.mustRun("c:cancel()")
        #expect(bed.eval("c:remaining()") == "0.0")
        bed.advance(to: 3)
        #expect(bed.eval("h:remaining()") == "0.0")
        bed.advance(to: 1000)
        #expect(bed.eval("h:remaining()") == "0.0")
    }

    @Test("handle methods are shared: h.pause == g.pause")
    func sharedMethods() {
        let bed = LuaTestbed()
        bed.mustRun("h = countdown.start{seconds = 3}; g = countdown.start{seconds = 4}")
        #expect(bed.eval("h.pause == g.pause and type(h.pause) == 'function'") == "true")
    }

    @Test("a handle cannot be written to")
    func noNewIndex() {
        let bed = LuaTestbed()
        bed.mustRun("h = countdown.start{id = 'x', seconds = 3}")
        #expect(bed.eval("pcall(function() h.id = 'y' end)") == "false")
        #expect(bed.eval("h.id") == "x")
    }
}
