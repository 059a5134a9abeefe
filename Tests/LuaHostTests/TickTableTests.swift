import Testing

@Suite("The `t` a hook receives: a read-only snapshot of one tick")
struct TickTableTests {
    @Test("first tick of 1d 1h 1m 1.5s: every field")
    func fieldsOfFirstTick() {
        let bed = LuaTestbed()
        bed.mustRun("""
            countdown.start{id = "x", seconds = 90061.5, every = 0.1, on_tick = function(t)
              if first then return end
              first = t
            end}
            """)
        #expect(bed.eval("first.id") == "x")
        #expect(bed.eval("first.remaining") == "90061.5")
        #expect(bed.eval("first.days") == "1")
        #expect(bed.eval("first.hours") == "1")
        #expect(bed.eval("first.minutes") == "1")
        #expect(bed.eval("first.seconds") == "1")
        #expect(bed.eval("first.tenths") == "5")
        #expect(bed.eval("first.elapsed") == "0.0")
        #expect(bed.eval("first.progress") == "0.0")
        #expect(bed.eval("first.missed") == "0")
    }

    @Test("unit fields and missed are integers; remaining, elapsed and progress are floats")
    func fieldTypes() {
        let bed = LuaTestbed()
        bed.mustRun("countdown.start{seconds = 5, on_tick = function(t) first = first or t end}")
        for field in ["days", "hours", "minutes", "seconds", "tenths", "missed"] {
            #expect(bed.eval("math.type(first.\(field))") == "integer", "\(field)")
        }
        for field in ["remaining", "elapsed", "progress"] {
            #expect(bed.eval("math.type(first.\(field))") == "float", "\(field)")
        }
    }

    @Test("t has exactly the documented fields")
    func noOtherFields() {
        let bed = LuaTestbed()
        bed.mustRun("""
            countdown.start{id = "x", seconds = 5, on_tick = function(t)
              local names = {}
              for k in pairs(t) do names[#names + 1] = k end
              table.sort(names)
              print(table.concat(names, ","))
            end}
            """)
        #expect(bed.lines == ["days,elapsed,hours,id,minutes,missed,overtime,progress,remaining,seconds,tenths"])
    }

    @Test("an anonymous countdown's t.id is nil")
    func anonymousID() {
        let bed = LuaTestbed()
        bed.mustRun("countdown.start{seconds = 5, on_tick = function(t) print(t.id) end}")
        #expect(bed.lines == ["nil"])
    }

    @Test("halfway: elapsed and remaining split the length, progress is 0.5")
    func halfway() {
        let bed = LuaTestbed()
        bed.mustRun("""
            countdown.start{seconds = 4, on_tick = function(t)
              print(t.remaining, t.elapsed, t.progress)
            end}
            """)
        bed.advance(to: 2)
        #expect(bed.lines == ["4.0 0.0 0.0", "3.0 1.0 0.25", "2.0 2.0 0.5"])
    }

    @Test("progress climbs from 0 to 1 and never leaves [0, 1]")
    func progressRange() throws {
        let bed = LuaTestbed()
        bed.mustRun("""
            out_of_range, last = 0, -1
            local function check(t)
              if t.progress < 0 or t.progress > 1 or t.progress < last then out_of_range = out_of_range + 1 end
              last = t.progress
            end
            countdown.start{seconds = 2.5, every = 0.1, on_tick = check,
                            on_done = function(t) check(t); done_progress = t.progress end}
            """)
        try bed.runAll()
        #expect(bed.global("out_of_range") == "0")
        #expect(bed.global("done_progress") == "1.0")
    }

    @Test("on_done's t: remaining 0, elapsed the whole length, progress 1, the id")
    func doneTable() throws {
        let bed = LuaTestbed()
        bed.mustRun("""
            countdown.start{id = "d", seconds = 3, on_done = function(t)
              print(t.id, t.remaining, t.elapsed, t.progress, t.days, t.hours, t.minutes, t.seconds, t.tenths, t.missed)
            end}
            """)
        try bed.runAll()
        #expect(bed.lines == ["d 0.0 3.0 1.0 0 0 0 0 0 0"])
    }

    @Test("a cancelled countdown's on_done t shows the time that was left")
    func cancelledTable() {
        let bed = LuaTestbed()
        bed.mustRun("""
            h = countdown.start{seconds = 10, on_done = function(t, reason)
              print(reason, t.remaining, t.elapsed)
            end}
            """)
        bed.advance(to: 2.5)
        bed.mustRun("h:cancel()")
        #expect(bed.lines == ["cancelled 7.5 2.5"])
    }

    @Test("after a stall, one catch-up tick carries the true remaining time and the ticks it missed")
    func missedAfterStall() {
        let bed = LuaTestbed()
        bed.mustRun("""
            countdown.start{seconds = 10, on_tick = function(t) print(t.remaining, t.missed) end}
            """)
        #expect(bed.takeLines() == ["10.0 0"])
        bed.stall(for: 3.5)
        #expect(bed.takeLines() == ["6.5 2"])
        bed.advance(to: 5)
        #expect(bed.takeLines() == ["6.0 0", "5.0 0"])
    }

    @Test("units are truncated, the way clocks show them")
    func truncatedUnits() {
        let bed = LuaTestbed()
        bed.mustRun("""
            countdown.start{seconds = 3661.96, every = 0.1, on_tick = function(t)
              first = first or ("%d %d %d %d"):format(t.hours, t.minutes, t.seconds, t.tenths)
            end}
            """)
        #expect(bed.global("first") == "1 1 1 9")
    }

    @Test("t is a snapshot: a kept t still shows its own tick's values after later ticks")
    func snapshot() {
        let bed = LuaTestbed()
        bed.mustRun("kept = {}; countdown.start{seconds = 3, on_tick = function(t) kept[#kept + 1] = t end}")
        bed.advance(to: 2)
        #expect(bed.eval("kept[1].remaining .. ',' .. kept[2].remaining .. ',' .. kept[3].remaining") == "3.0,2.0,1.0")
    }

    @Test("t is read-only: assigning a field is an error that says so")
    func readOnly() {
        let bed = LuaTestbed()
        bed.mustRun("""
            countdown.start{seconds = 3, on_tick = function(t)
              ok, err = pcall(function() t.remaining = 5 end)
            end}
            """)
        #expect(bed.eval("ok") == "false")
        #expect(bed.eval("err")?.contains("a tick is read-only") == true)
    }

    @Test("t prints as its countdown and remaining time, and unknown fields are nil")
    func tostringAndUnknown() {
        let bed = LuaTestbed()
        bed.mustRun(#"countdown.start{id = "otp", seconds = 2.5, on_tick = function(t) s, u = tostring(t), t.nope end}"#)
        #expect(bed.eval("s") == #"tick of "otp": 2.5 s remaining"#)
        #expect(bed.eval("u") == "nil")
    }
}
