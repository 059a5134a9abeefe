import Testing

@Suite("Starting a countdown with an id that is running replaces it")
struct ReplacementTests {
    @Test("the old countdown's hooks never run again, not even on_done")
    func oldHooksSilent() throws {
        let bed = LuaTestbed()
        bed.mustRun("""
            old = countdown.start{id = "x", seconds = 3,
              on_tick = function(t) print("old tick", t.remaining) end,
              on_done = function(_, r) print("old done", r) end}
            new = countdown.start{id = "x", seconds = 2,
              on_tick = function(t) print("new tick", t.remaining) end,
              on_done = function(_, r) print("new done", r) end}
            """)
        try bed.runAll()
        #expect(bed.lines == ["old tick 3.0", "new tick 2.0", "new tick 1.0", "new done finished"])
        #expect(bed.errors.isEmpty)
    }

    @Test("countdown.get and countdown.list see only the new one")
    func getSeesNew() {
        let bed = LuaTestbed()
        bed.mustRun("""
            old = countdown.start{id = "x", seconds = 3}
            new = countdown.start{id = "x", seconds = 2}
            """)
        #expect(bed.eval("countdown.get('x') == new") == "true")
        #expect(bed.eval("#countdown.list()") == "1")
        #expect(bed.eval("new:state()") == "running")
        #expect(bed.eval("old:state()") == "cancelled")
        #expect(bed.eval("old:cancel()") == "false")
    }

    @Test("cancelling the old handle does not touch the new countdown")
    func oldHandleIsDetached() throws {
        let bed = LuaTestbed()
        bed.mustRun("""
            old = countdown.start{id = "x", seconds = 3}
            new = countdown.start{id = "x", seconds = 2, on_done = function(_, r) print(r) end}
            old:cancel(); old:pause()
            """)
        #expect(bed.eval("new:state()") == "running")
        try bed.runAll()
        #expect(bed.lines == ["finished"])
    }

    @Test("anonymous countdowns never replace each other")
    func anonymousCoexist() {
        let bed = LuaTestbed()
        bed.mustRun("countdown.start{seconds = 3}; countdown.start{seconds = 3}")
        #expect(bed.scheduler.activeCount == 2)
    }
}
