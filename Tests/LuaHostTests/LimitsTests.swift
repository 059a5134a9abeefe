import CountdownCore
import Foundation
import Testing

@Suite("Extreme values are Lua errors, never a crash of the host")
struct LimitsTests {
    @Test("a duration beyond about 73 years is refused by start")
    func startTooLong() {
        let bed = LuaTestbed()
        bed.mustRun("ok, err = pcall(countdown.start, {seconds = 3e9})")
        #expect(bed.global("ok") == "false")
        #expect(bed.global("err")?.contains("'seconds' must be at most 2305843009 seconds (about 73 years), got 3000000000") == true)
    }

    @Test("the longest accepted duration runs")
    func startLongest() {
        let bed = LuaTestbed()
        bed.mustRun("h = countdown.start{seconds = 2e9}")
        #expect(bed.eval("h:remaining()") == "2000000000.0")
    }

    @Test("appends that would pass the longest duration are refused and change nothing")
    func appendOverflow() {
        let bed = LuaTestbed()
        bed.mustRun("""
            h = countdown.start{seconds = 2e9}
            appended = 0
            ok, err = pcall(function()
              for i = 1, 6 do h:append(2e9); appended = i end
            end)
            """)
        #expect(bed.global("ok") == "false")
        #expect(bed.global("err")?.contains("append: the countdown would be longer than") == true, "\(bed.global("err") ?? "")")
        #expect(bed.global("appended") == "0")
        #expect(bed.eval("h:remaining()") == "2000000000.0")
        #expect(bed.eval("h:state()") == "running")
    }

    @Test("appends up to the longest duration are accepted")
    func appendUpToLimit() {
        let bed = LuaTestbed()
        bed.mustRun("h = countdown.start{seconds = 1e9}; h:append(1e9); h:pause(); h:append(1e8)")
        #expect(bed.eval("h:remaining()") == "2100000000.0")
    }

    @Test("a handle's __index reached through the debug library refuses a non-handle")
    func indexNonHandle() {
        let bed = LuaTestbed()
        bed.mustRun("""
            local h = countdown.start{seconds = 5}
            local index = debug.getmetatable(h).__index
            ok1, err1 = pcall(index, 5, "id")
            ok2, err2 = pcall(index, io.stdout, "id")
            ok3, id3 = pcall(index, h, "id")
            """)
        #expect(bed.global("ok1") == "false")
        #expect(bed.global("ok2") == "false")
        #expect(bed.global("err2")?.contains("countdown handle") == true, "\(bed.global("err2") ?? "")")
        #expect(bed.global("err1")?.contains("countdown handle") == true, "\(bed.global("err1") ?? "")")
        #expect(bed.global("ok3") == "true")
        #expect(bed.global("id3") == nil)
    }

    @Test("an at deadline past the year 2200 is a Lua error naming 'at', not a crash")
    func atFarFuture() {
        let bed = LuaTestbed()
        bed.mustRun(#"ok, err = pcall(countdown.start, {at = "2300-01-01T00:00:00Z"})"#)
        #expect(bed.global("ok") == "false")
        #expect(bed.global("err")?.contains("'at'") == true)
        #expect(bed.global("err")?.contains("year 2300 is out of range") == true)
    }

    @Test("an at deadline more than 73 years away is refused like a too-long duration")
    func atBeyondMaximumDuration() {
        let bed = LuaTestbed()
        bed.mustRun(#"ok, err = pcall(countdown.start, {at = "2199-01-01T00:00:00Z"})"#)
        #expect(bed.global("ok") == "false")
        #expect(bed.global("err")?.contains("further away than a countdown can last (about 73 years)") == true)
    }
}
