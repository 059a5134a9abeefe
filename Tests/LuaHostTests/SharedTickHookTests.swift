import Testing

/// An on_tick that lets its `t` go is called through a number the host keeps for
/// it (cd_share_tick_hook), without reading the countdown's handle on each tick.
/// The numbers are few and reused: every countdown must still get its own hook.
@Suite("on_tick functions shared by many countdowns")
struct SharedTickHookTests {
    @Test("more distinct on_tick functions than the host numbers: each countdown's own is called, as often as the others")
    func manyDistinctHooks() throws {
        let bed = LuaTestbed()
        bed.mustRun("""
            calls = {}
            for i = 1, 20 do
              calls[i] = 0
              countdown.start{ seconds = 0.5, every = 0.1, on_tick = function() calls[i] = calls[i] + 1 end }
            end
            """)
        try bed.runAll()
        bed.mustRun("print(table.concat(calls, ' '))")
        #expect(bed.lines.last == Array(repeating: "5", count: 20).joined(separator: " "))
    }

    @Test("a number given back by the last countdown of one function goes to the next function, which alone is called")
    func numberReused() throws {
        let bed = LuaTestbed()
        bed.mustRun("""
            first, second = 0, 0
            for i = 1, 3 do countdown.start{ seconds = 0.3, every = 0.1, on_tick = function() first = first + 1 end } end
            """)
        try bed.runAll()
        bed.mustRun("""
            before = first
            local function tick() second = second + 1 end
            for i = 1, 3 do countdown.start{ seconds = 0.3, every = 0.1, on_tick = tick } end
            """)
        try bed.runAll()
        bed.mustRun("print(first - before, second)")
        #expect(bed.lines.last == "0 9")
    }

    @Test("ending one countdown of two that share an on_tick keeps the other ticking with it")
    func partialRelease() throws {
        let bed = LuaTestbed()
        bed.mustRun("""
            n = 0
            local function tick() n = n + 1 end
            short = countdown.start{ seconds = 0.2, every = 0.1, on_tick = tick }
            long = countdown.start{ seconds = 1, every = 0.1, on_tick = tick }
            short:cancel()
            """)
        try bed.runAll()
        // short: its first tick, in start; long: 10 ticks (1.0 .. 0.1).
        bed.mustRun("print(n)")
        #expect(bed.lines.last == "11")
    }

    @Test("once its countdowns have ended, a shared on_tick can be collected")
    func releasedHookCollectable() throws {
        let bed = LuaTestbed()
        bed.mustRun("""
            weak = setmetatable({}, { __mode = "v" })
            do
              local function tick() end
              weak.tick = tick
              for i = 1, 5 do countdown.start{ seconds = 0.2, every = 0.1, on_tick = tick } end
            end
            collectgarbage(); collectgarbage()
            print("running", weak.tick ~= nil)
            """)
        try bed.runAll()
        bed.mustRun("collectgarbage(); collectgarbage(); print('ended', weak.tick ~= nil)")
        #expect(bed.lines == ["running true", "ended false"])
    }

    @Test("a shared on_tick that starts a countdown with itself: the nested first tick gets a tick of its own")
    func nestedStartWithSameHook() throws {
        let bed = LuaTestbed()
        bed.mustRun("""
            seen, started = {}, false
            local function tick(t)
              seen[#seen + 1] = ("%.1f/%.1f"):format(t.remaining, t.elapsed)
              if not started and t.remaining < 0.95 then
                started = true
                countdown.start{ seconds = 0.3, every = 0.1, on_tick = tick }
                seen[#seen + 1] = ("after %.1f"):format(t.remaining)
              end
            end
            countdown.start{ seconds = 1, every = 0.1, on_tick = tick }
            """)
        bed.advance(to: 0.1)
        bed.mustRun("print(table.concat(seen, ' '))")
        #expect(bed.lines.last == "1.0/0.0 0.9/0.1 0.3/0.0 after 0.9", "\(bed.lines) \(bed.errors)")
    }

    @Test("an error in a shared on_tick names its countdown and stops only that one")
    func errorInSharedHook() throws {
        let bed = LuaTestbed()
        bed.mustRun("""
            n = 0
            local function tick() n = n + 1 if n == 3 then error("boom") end end
            countdown.start{ id = "a", seconds = 1, every = 0.1, on_tick = tick }
            countdown.start{ id = "b", seconds = 1, every = 0.1, on_tick = tick }
            """)
        try bed.runAll()
        #expect(bed.errors.count == 1)
        #expect(bed.errors.first?.contains("boom") == true, "\(bed.errors)")
        bed.mustRun("print(n)")
        // Two first ticks; at 0.9 "a" fails (the third call) and stops; "b" ticks on, 0.9 to 0.1.
        #expect(bed.lines.last == "12")
    }
}
