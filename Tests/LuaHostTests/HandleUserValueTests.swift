import Testing

/// A handle made by the quick start path carries user values up to the last one
/// given (1 on_tick, 2 id, 3 on_done): 16 bytes less per countdown for each one
/// left out, so the common start, an on_tick and no id, has one. `on_error` needs the fourth, so a start with it takes the long path.
/// A user value a handle lacks reads as nil everywhere: no id, no hook, and the
/// default error policy (stop and report).
@Suite("Handle user values")
struct HandleUserValueTests {
    @Test("a quick start's handle has user values up to the last option given; one with on_error has all four")
    func userValueCount() {
        let bed = LuaTestbed()
        bed.mustRun("""
            bare = countdown.start{ seconds = 5 }
            named = countdown.start{ id = 'named', seconds = 5 }
            ticking = countdown.start{ seconds = 5, every = 0.5, on_tick = function() end }
            named_ticking = countdown.start{ id = 'named_ticking', seconds = 5, on_tick = function() end }
            done = countdown.start{ seconds = 5, on_done = function() end }
            guarded = countdown.start{ seconds = 5, on_tick = function() end, on_error = 'continue' }
            -- debug.getuservalue returns one value (nil) for a user value the userdata
            -- lacks, two (the value, true) for one it has: the count of user values.
            function count(h)
              local n = 0
              while select('#', debug.getuservalue(h, n + 1)) == 2 do n = n + 1 end
              return n
            end
            """)
        #expect(bed.eval("count(bare)") == "0")
        #expect(bed.eval("count(named)") == "2")
        #expect(bed.eval("count(ticking)") == "1")
        #expect(bed.eval("type(debug.getuservalue(ticking, 1))") == "function")
        #expect(bed.eval("count(named_ticking)") == "2")
        #expect(bed.eval("debug.getuservalue(named_ticking, 2)") == "named_ticking")
        #expect(bed.eval("count(done)") == "3")
        #expect(bed.eval("count(guarded)") == "4")
        #expect(bed.eval("debug.getuservalue(guarded, 4)") == "continue")
    }

    @Test("a handle without user values has no id, and global tick and end hooks run for it as for any other")
    func missingUserValuesReadAsNil() {
        let bed = LuaTestbed()
        bed.mustRun("""
            ticks, ends = 0, 0
            countdown.on("tick", function() ticks = ticks + 1 end)
            countdown.on("done", function() ends = ends + 1 end)
            h = countdown.start{ seconds = 2 }
            """)
        #expect(bed.eval("tostring(h.id)") == "nil")
        #expect(bed.eval("tostring(h):match('anonymous') ~= nil") == "true")
        bed.advance(to: 3)
        // Ticks at 2 s and 1 s left, then the end.
        #expect(bed.eval("ticks") == "2")
        #expect(bed.eval("ends") == "1")
        #expect(bed.eval("h:state()") == "finished")
        #expect(bed.errors.isEmpty)
    }

    @Test("handles that lack on_done, or every user value, restart by append as any other")
    func appendAfterEndWithoutOnDone() {
        let bed = LuaTestbed()
        bed.mustRun("""
            n = 0
            h = countdown.start{ seconds = 1, on_tick = function() n = n + 1 end }
            bare = countdown.start{ seconds = 1 }
            """)
        bed.advance(to: 2)
        #expect(bed.eval("h:state()") == "finished")
        bed.mustRun("h:append(1) bare:append(2)")
        #expect(bed.eval("tostring(bare.id)") == "nil")
        bed.advance(to: 3.5)
        // One tick at the start, one when append restarted it.
        #expect(bed.eval("n") == "2")
        #expect(bed.eval("h:state()") == "finished")
        #expect(bed.eval("bare:state()") == "running")
        #expect(bed.eval("bare:remaining()") == "0.5")
        #expect(bed.errors.isEmpty)
    }

    @Test("a failing hook of a handle without a fourth user value stops its countdown and is reported, as the default policy says")
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
