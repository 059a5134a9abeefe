import Testing

/// A handle made by the quick start path carries three user values (id, on_tick,
/// on_done): 16 bytes less per countdown. `on_error` needs the fourth, so a start
/// with it takes the long path, and a handle without it behaves as the default
/// policy says (stop and report).
@Suite("Handle user values")
struct HandleUserValueTests {
    @Test("a plain start's handle has no fourth user value; one with on_error keeps it there")
    func userValueCount() {
        let bed = LuaTestbed()
        bed.mustRun("""
            plain = countdown.start{ seconds = 5, every = 0.5, on_tick = function() end }
            guarded = countdown.start{ seconds = 5, on_tick = function() end, on_error = 'continue' }
            """)
        // debug.getuservalue returns one value (nil) for a user value the userdata
        // lacks, two (the value, true) for one it has.
        #expect(bed.eval("select('#', debug.getuservalue(plain, 4))") == "1")
        #expect(bed.eval("select('#', debug.getuservalue(plain, 3))") == "2")
        #expect(bed.eval("debug.getuservalue(guarded, 4)") == "continue")
    }

    @Test("a failing hook of a three-value handle stops its countdown and is reported, as the default policy says")
    func defaultPolicyWithoutFourthValue() throws {
        let bed = LuaTestbed()
        bed.mustRun("""
            n = 0
            h = countdown.start{ seconds = 5, every = 0.5, on_tick = function(t) n = n + 1 if n == 2 then error('boom') end end }
            """)
        bed.advance(to: 2)
        #expect(bed.eval("n") == "2")
        #expect(bed.eval("h:state()") == "cancelled")
        #expect(bed.errors.contains { $0.contains("boom") })
    }
}
