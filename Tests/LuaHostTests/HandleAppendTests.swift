import Testing

@Suite("h:append(seconds): more time for a running countdown, a restart for an ended one")
struct HandleAppendTests {
    @Test("appending to a running countdown moves its end later and returns the handle")
    func appendRunning() throws {
        let bed = LuaTestbed()
        bed.mustRun("""
            h = countdown.start{seconds = 3,
              on_tick = function(t) print("tick", t.remaining) end,
              on_done = function(_, r) print(r) end}
            """)
        bed.advance(to: 1)
        bed.mustRun("print(h:append(5) == h, h:state(), h:remaining())")
        try bed.runAll()
        #expect(bed.now == 8)
        // append calls on_tick at once with the new remaining time (issue 13).
        #expect(bed.lines == ["tick 3.0", "tick 2.0", "tick 7.0", "true running 7.0",
                              "tick 6.0", "tick 5.0", "tick 4.0", "tick 3.0", "tick 2.0", "tick 1.0", "finished"])
    }

    @Test("appending to a paused countdown adds to its frozen time")
    func appendPaused() {
        let bed = LuaTestbed()
        bed.mustRun("h = countdown.start{seconds = 3}; h:pause(); h:append(2)")
        #expect(bed.eval("h:state()") == "paused")
        #expect(bed.eval("h:remaining()") == "5.0")
    }

    @Test("appending to a finished countdown restarts it: same id and hooks, a first tick at once")
    func appendFinishedRestarts() throws {
        let bed = LuaTestbed()
        bed.mustRun("""
            h = countdown.start{id = "x", seconds = 2,
              on_tick = function(t) print("tick", t.id, t.remaining) end,
              on_done = function(t, r) print("done", t.id, r) end}
            """)
        try bed.runAll()
        #expect(bed.takeLines() == ["tick x 2.0", "tick x 1.0", "done x finished"])
        bed.mustRun("print(h:append(3) == h, h:state(), h.id, countdown.get('x') == h)")
        #expect(bed.takeLines() == ["tick x 3.0", "true running x true"])
        try bed.runAll()
        #expect(bed.takeLines() == ["tick x 2.0", "tick x 1.0", "done x finished"])
        #expect(bed.now == 5)
        #expect(bed.eval("h:state()") == "finished")
    }

    @Test("appending to a cancelled countdown restarts it")
    func appendCancelledRestarts() {
        let bed = LuaTestbed()
        bed.mustRun("""
            h = countdown.start{seconds = 5, on_tick = function(t) print("tick", t.remaining) end,
                                on_done = function(_, r) print(r) end}
            h:cancel()
            h:append(2)
            print(h:state())
            """)
        #expect(bed.lines == ["tick 5.0", "cancelled", "tick 2.0", "running"])
    }

    @Test("a restart keeps the tick interval")
    func restartKeepsEvery() throws {
        let bed = LuaTestbed()
        bed.mustRun("""
            h = countdown.start{seconds = 1, every = 0.5, on_tick = function(t) print(t.remaining) end}
            """)
        try bed.runAll()
        #expect(bed.takeLines() == ["1.0", "0.5"])
        bed.mustRun("h:append(1.5)")
        try bed.runAll()
        #expect(bed.takeLines() == ["1.5", "1.0", "0.5"])
    }

    @Test("a restart of a countdown without on_tick still ends with on_done")
    func restartWithoutTick() throws {
        let bed = LuaTestbed()
        bed.mustRun(#"h = countdown.start{seconds = 1, on_done = function(_, r) print(r) end}"#)
        try bed.runAll()
        bed.mustRun("h:append(4)")
        try bed.runAll()
        #expect(bed.lines == ["finished", "finished"])
        #expect(bed.now == 5)
    }

    @Test("append counts as a whole countdown again in progress")
    func restartProgress() throws {
        let bed = LuaTestbed()
        bed.mustRun(#"h = countdown.start{seconds = 1, on_tick = function(t) print(t.progress) end}"#)
        try bed.runAll()
        bed.mustRun("h:append(2)")
        bed.advance(to: 2)
        #expect(bed.lines == ["0.0", "0.0", "0.5"])
    }
}
