import Testing

/// The virtual wall clock starts at 2027-01-01T00:00:00Z.
@Suite("countdown.start{at = ...}: deadlines on the wall clock")
struct AtDeadlineTests {
    @Test("an ISO 8601 date-time with an offset", arguments: [
        "2027-01-01T08:00:10+08:00",
        "2027-01-01T08:00:10+0800",
        "2027-01-01T08:00:10+08",
        "2027-01-01 08:00:10+08:00",
        "2027-01-01T00:00:10Z",
        "2026-12-31T19:00:10-05:00",
    ])
    func isoWithOffset(_ at: String) throws {
        let bed = LuaTestbed(timeZone: fixedZone(hours: 3))
        bed.mustRun("""
            countdown.start{at = "\(at)",
              on_tick = function(t) print("tick", t.remaining) end,
              on_done = function(_, reason) print(reason) end}
            """)
        #expect(bed.takeLines() == ["tick 10.0"])
        try bed.runAll()
        #expect(bed.now == 10)
        #expect(bed.takeLines().last == "finished")
    }

    @Test("fractions of a second are kept")
    func fraction() {
        let bed = LuaTestbed()
        bed.mustRun(#"countdown.start{at = "2027-01-01T00:00:02.5Z", on_tick = function(t) print(t.remaining) end}"#)
        #expect(bed.lines == ["2.5"])
    }

    @Test("\"HH:MM\" is the next occurrence in host.timeZone")
    func clockTimeInHostZone() {
        // 00:00Z is 01:00 at +01:00, so 01:05 there is 5 minutes away.
        let bed = LuaTestbed(timeZone: fixedZone(hours: 1))
        bed.mustRun(#"countdown.start{at = "01:05", on_tick = function(t) print(t.remaining) end}"#)
        #expect(bed.lines == ["300.0"])
    }

    @Test("the same clock time in another zone is another instant")
    func clockTimeDependsOnZone() {
        let bed = LuaTestbed(timeZone: fixedZone(hours: 0))
        bed.mustRun(#"countdown.start{at = "01:05", on_tick = function(t) print(t.remaining) end}"#)
        #expect(bed.lines == ["3900.0"])
    }

    @Test("\"HH:MM:SS\" with a negative offset zone")
    func clockTimeWithSeconds() {
        // 00:00Z is 19:00 the day before at -05:00.
        let bed = LuaTestbed(timeZone: fixedZone(hours: -5))
        bed.mustRun(#"countdown.start{at = "19:00:30", on_tick = function(t) print(t.remaining) end}"#)
        #expect(bed.lines == ["30.0"])
    }

    @Test("a clock time already past today means tomorrow")
    func clockTimeTomorrow() {
        let bed = LuaTestbed(timeZone: fixedZone(hours: 1))
        bed.mustRun(#"countdown.start{at = "00:30", on_tick = function(t) print(t.remaining) end}"#)
        #expect(bed.lines == ["84600.0"])
    }

    @Test("a date-time without an offset is read in host.timeZone")
    func localDateTime() {
        let bed = LuaTestbed(timeZone: fixedZone(hours: 2))
        bed.mustRun(#"countdown.start{at = "2027-01-01T02:00:20", on_tick = function(t) print(t.remaining) end}"#)
        #expect(bed.lines == ["20.0"])
    }

    @Test("a deadline already past finishes at once: a first tick at 0, then on_done(\"finished\"), inside start")
    func pastDeadline() {
        let bed = LuaTestbed()
        bed.mustRun("""
            h = countdown.start{at = "2026-06-01T00:00:00Z",
              on_tick = function(t) print("tick") end,
              on_done = function(t, reason) print(reason, t.remaining) end}
            print("returned", h:state())
            """)
        #expect(bed.lines == ["tick", "finished 0.0", "returned finished"])
        #expect(bed.scheduler.activeCount == 0)
    }

    @Test("an at-countdown's ticks land on whole seconds before the deadline")
    func atTicksAligned() throws {
        let bed = LuaTestbed()
        bed.mustRun(#"countdown.start{at = "2027-01-01T00:00:02.5Z", on_tick = function(t) print(t.remaining) end}"#)
        try bed.runAll()
        #expect(bed.lines == ["2.5", "2.0", "1.0"])
    }
}
