import Testing

/// `countdown.start{..., overtime = true}`: past the end, on_done(t, "finished")
/// runs once and the ticks go on with `t.overtime`, the seconds past it.
@Suite("overtime: ticks go on past the end")
struct OvertimeTests {
    @Test("on_done once at the end, then ticks with t.overtime, aligned to the deadline, until cancelled")
    func ticksPastTheEnd() {
        let bed = LuaTestbed()
        bed.mustRun("""
            h = countdown.start{ id = "talk", seconds = 2, overtime = true,
              on_tick = function(t) print("tick", t.remaining, t.overtime, t.progress) end,
              on_done = function(t, r) print("done", t.id, r, t.overtime) end }
            """)
        bed.advance(to: 4.5)
        #expect(bed.takeLines() == ["tick 2.0 0.0 0.0", "tick 1.0 0.0 0.5", "done talk finished 0.0",
                                    "tick 0.0 1.0 1.0", "tick 0.0 2.0 1.0"])
        #expect(bed.eval("h:state()") == "running")
        #expect(bed.eval("countdown.get('talk') == h") == "true")
        // Its end came at the deadline: cancelling it now (q, h:cancel(), cdscript
        // cancel) stops its ticks and is no second end (issue 37: on_done once per end).
        #expect(bed.eval("h:cancel()") == "true")
        #expect(bed.takeLines().isEmpty)
        bed.advance(to: 10)
        #expect(bed.takeLines().isEmpty)
    }

    @Test("one end, one on_done: time added past the end counts down again; a cancel before the next end is an end, after it is none")
    func onDoneOncePerEnd() {
        let bed = LuaTestbed()
        bed.mustRun("""
            h = countdown.start{ seconds = 1, overtime = true, on_done = function(t, r) print(r) end }
            """)
        bed.advance(to: 2)
        #expect(bed.takeLines() == ["finished"])
        bed.mustRun("h:append(3)")
        bed.advance(to: 2.5)
        bed.mustRun("h:cancel()")
        #expect(bed.takeLines() == ["cancelled"], "counting down again, the cancel is this run's end")
        bed.mustRun("""
            g = countdown.start{ seconds = 1, overtime = true, on_done = function(t, r) print(r) end }
            """)
        bed.advance(to: 5)
        bed.mustRun("g:append(3)")
        bed.advance(to: 7)
        bed.mustRun("g:cancel()")
        #expect(bed.takeLines() == ["finished", "finished"], "each end once; the cancel after the second is none")
    }

    @Test("a stall past the end: one tick at the latest instant, with what it skipped")
    func stall() {
        let bed = LuaTestbed()
        bed.mustRun("""
            countdown.start{ seconds = 1, overtime = true,
              on_tick = function(t) print("tick", t.overtime, t.missed) end,
              on_done = function(t, r) print(r) end }
            """)
        bed.advance(to: 2)
        #expect(bed.takeLines() == ["tick 0.0 0", "finished", "tick 1.0 0"])
        bed.stall(for: 3.5)
        #expect(bed.takeLines() == ["tick 4.0 2"])
    }

    @Test("time added past the end counts down again, and the end comes again")
    func appendPastTheEnd() {
        let bed = LuaTestbed()
        bed.mustRun("""
            h = countdown.start{ seconds = 1, overtime = true,
              on_tick = function(t) print("tick", t.remaining, t.overtime) end,
              on_done = function(t, r) print(r) end }
            """)
        bed.advance(to: 3)
        #expect(bed.takeLines() == ["tick 1.0 0.0", "finished", "tick 0.0 1.0", "tick 0.0 2.0"])
        bed.mustRun("h:append(4)")
        bed.advance(to: 6)
        #expect(bed.takeLines() == ["tick 2.0 0.0", "tick 1.0 0.0", "finished", "tick 0.0 1.0"])
    }

    @Test("taking off all that is left runs an overtime countdown into its end, not out of it")
    func takeOffAll() {
        let bed = LuaTestbed()
        bed.mustRun("""
            h = countdown.start{ seconds = 10, overtime = true,
              on_tick = function(t) print("tick", t.remaining, t.overtime) end,
              on_done = function(t, r) print(r) end }
            """)
        bed.mustRun("h:append(-20)")
        bed.advance(to: 1)
        #expect(bed.takeLines() == ["tick 10.0 0.0", "finished", "tick 0.0 1.0"])
        #expect(bed.eval("h:state()") == "running")
    }

    @Test("paused past the end, the time past it stands still and goes on from there")
    func pausePastTheEnd() {
        let bed = LuaTestbed()
        bed.mustRun("""
            h = countdown.start{ seconds = 1, overtime = true,
              on_tick = function(t) print("tick", t.overtime) end }
            """)
        bed.advance(to: 3)
        bed.mustRun("h:pause()")
        bed.advance(to: 10)
        bed.mustRun("h:resume()")
        bed.advance(to: 11)
        #expect(bed.takeLines() == ["tick 0.0", "tick 1.0", "tick 2.0", "tick 2.0", "tick 2.0", "tick 3.0"])
        #expect(bed.eval("h:remaining()") == "0.0")
    }

    @Test("without overtime nothing changes: t.overtime is 0 and the end ends it")
    func withoutOvertime() throws {
        let bed = LuaTestbed()
        bed.mustRun("""
            h = countdown.start{ seconds = 1, on_tick = function(t) print("tick", t.overtime) end,
              on_done = function(t, r) print(r) end }
            """)
        try bed.runAll()
        #expect(bed.takeLines() == ["tick 0.0", "finished"])
        #expect(bed.eval("h:state()") == "finished")
    }

    @Test("overtime must be a boolean")
    func badOptions() {
        let bed = LuaTestbed()
        #expect(bed.run("countdown.start{ seconds = 1, overtime = 1 }")?.message.contains("'overtime' must be a boolean, got number") == true)
    }
}
