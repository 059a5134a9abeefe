import Foundation
import CountdownCore
import Testing

@Suite("countdown.start: the first tick is synchronous, then one tick per interval, then one on_done")
struct StartTickTests {
    static let threeSeconds = """
        h = countdown.start{
          seconds = 3,
          on_tick = function(t) print("tick", t.remaining) end,
          on_done = function(t, reason) print("done", reason, t.remaining) end,
        }
        print("start returned")
        """

    @Test("the first tick fires inside countdown.start with the whole length")
    func firstTickIsSynchronous() {
        let bed = LuaTestbed()
        bed.mustRun(Self.threeSeconds)
        #expect(bed.lines == ["tick 3.0", "start returned"])
    }

    @Test("the first tick's remaining is exactly the length asked for")
    func firstTickIsExact() {
        let bed = LuaTestbed()
        bed.mustRun("""
            countdown.start{seconds = 3, on_tick = function(t) exact = (t.remaining == 3) end}
            """)
        #expect(bed.global("exact") == "true")
    }

    @Test("3 s: ticks 3, 2, 1, then on_done(t, \"finished\") once, at t = 3")
    func threeTwoOneDone() {
        let bed = LuaTestbed()
        bed.mustRun(Self.threeSeconds)
        #expect(bed.takeLines() == ["tick 3.0", "start returned"])
        bed.advance(to: 2.999)
        #expect(bed.takeLines() == ["tick 2.0", "tick 1.0"])
        bed.advance(to: 3)
        #expect(bed.takeLines() == ["done finished 0.0"])
        bed.advance(to: 60)
        #expect(bed.takeLines() == [])
        #expect(bed.scheduler.activeCount == 0)
        #expect(bed.errors.isEmpty)
    }

    @Test("ticks land on whole seconds of the virtual clock")
    func tickInstants() throws {
        let bed = LuaTestbed()
        bed.mustRun("""
            countdown.start{seconds = 3, on_tick = function(t) print(t.elapsed) end,
                            on_done = function(t) print("done", t.elapsed) end}
            """)
        var seen: [Double] = []
        while let instant = bed.scheduler.next(bed.clock) { seen.append(Time.seconds(instant)) }
        #expect(seen == [1, 2, 3])
        #expect(bed.lines == ["0.0", "1.0", "2.0", "done 3.0"])
    }

    @Test("every = 0.1 for 1.5 s gives 15 ticks, 1.5 down to 0.1")
    func tenthsGiveFifteenTicks() throws {
        let bed = LuaTestbed()
        bed.mustRun("""
            countdown.start{seconds = 1.5, every = 0.1,
              on_tick = function(t) print(("%.1f"):format(t.remaining)) end,
              on_done = function() print("done") end}
            """)
        try bed.runAll()
        let expected = (1...15).reversed().map { String(format: "%.1f", Double($0) / 10) } + ["done"]
        #expect(bed.lines == expected)
        #expect(bed.now == 1.5)
    }

    @Test("tick values are exact multiples of every, with no float drift")
    func tenthsAreExact() throws {
        let bed = LuaTestbed()
        bed.mustRun("""
            bad = 0
            k = 15
            countdown.start{seconds = 1.5, every = 0.1, on_tick = function(t)
              if t.remaining ~= k / 10 then bad = bad + 1 end
              k = k - 1
            end}
            """)
        try bed.runAll()
        #expect(bed.global("bad") == "0")
        #expect(bed.global("k") == "0")
    }

    @Test("without on_tick only on_done runs")
    func doneOnly() throws {
        let bed = LuaTestbed()
        bed.mustRun(#"countdown.start{seconds = 2, on_done = function(t, r) print(r) end}"#)
        try bed.runAll()
        #expect(bed.lines == ["finished"])
        #expect(bed.now == 2)
    }

    @Test("a countdown with no hooks at all still runs to its end")
    func noHooks() throws {
        let bed = LuaTestbed()
        bed.mustRun(#"h = countdown.start{seconds = 2}"#)
        #expect(bed.eval("h:state()") == "running")
        try bed.runAll()
        #expect(bed.eval("h:state()") == "finished")
    }

    @Test("countdown.start returns the handle")
    func returnsHandle() {
        let bed = LuaTestbed()
        bed.mustRun(#"h = countdown.start{seconds = 2}"#)
        #expect(bed.eval("type(h)") == "userdata")
        #expect(bed.eval("h:state()") == "running")
    }

    @Test("callable tables are accepted as hooks")
    func callableTableHook() throws {
        let bed = LuaTestbed()
        bed.mustRun("""
            local hook = setmetatable({}, {__call = function(self, t) print("called", t.remaining) end})
            countdown.start{seconds = 1, on_tick = hook}
            """)
        #expect(bed.lines == ["called 1.0"])
    }
}
