import CLua
import CLuaShim
import Testing

/// Each countdown holds registry references to its handle, hooks and id while it
/// runs; they must all be released when it ends, however it ends.
@Suite("Registry references are released when countdowns end")
struct RegistryReferenceTests {
    @Test("1000 countdowns started together and finished leave no live references behind")
    func thousandFinished() throws {
        let bed = LuaTestbed()
        let before = bed.registryCensus()
        bed.mustRun("""
            for i = 1, 1000 do
              countdown.start{id = "c" .. i, seconds = i / 100,
                on_tick = function() end, on_done = function() end}
            end
            """)
        let during = bed.registryCensus()
        #expect(during.live >= before.live + 1000, "\(during)")
        try bed.runAll()
        let after = bed.registryCensus()
        #expect(after.live <= before.live + 2, "\(before) -> \(after)")
    }

    @Test("freed references are reused: a second batch does not grow the registry")
    func slotsReused() throws {
        let bed = LuaTestbed()
        bed.mustRun("""
            function batch()
              for i = 1, 1000 do
                countdown.start{id = "c" .. i, seconds = 1, on_tick = function() end, on_done = function() end}
              end
            end
            batch()
            """)
        try bed.runAll()
        let first = bed.registryCensus()
        bed.mustRun("batch()")
        try bed.runAll()
        let second = bed.registryCensus()
        #expect(second.entries <= first.entries + 2, "\(first) -> \(second)")
        #expect(second.live <= first.live + 2, "\(first) -> \(second)")
    }

    /// Handle references skip luaL_ref while countdowns are being started (they take
    /// the key after the last one given when it is free): keys luaL_ref gave others
    /// in between must stay theirs, and every handle its own.
    @Test("handle references taken between other registry references leave both intact")
    func handleRefsBesideOthers() throws {
        let bed = LuaTestbed()
        var others: [(ref: Int32, text: String)] = []
        bed.mustRun("hs = {}")
        for round in 1...50 {
            bed.mustRun("for i = 1, 20 do hs[#hs + 1] = countdown.start{seconds = 9, on_tick = function() end} end")
            lua_pushstring(bed.L.raw, "other \(round)")
            others.append((cd_ref(bed.L.raw), "other \(round)"))
        }
        for (ref, text) in others {
            cd_push_ref(bed.L.raw, ref)
            #expect(String(cString: lua_tolstring(bed.L.raw, -1, nil)) == text)
            lua_settop(bed.L.raw, -2)
        }
        #expect(bed.eval("#countdown.list()") == "1000")
        #expect(bed.eval("(function() local seen, n = {}, 0 for _, h in ipairs(countdown.list()) do if not seen[h] then seen[h] = true n = n + 1 end end for _, h in ipairs(hs) do if not seen[h] then return 'missing' end end return n end)()") == "1000")
        bed.mustRun("countdown.cancel_all()")
        let afterCancel = bed.registryCensus()
        bed.mustRun("for i = 1, 1000 do countdown.start{seconds = 9, on_tick = function() end} end")
        #expect(bed.registryCensus().entries <= afterCancel.entries + 2, "released handle keys are taken again")
    }

    @Test("1000 countdowns one after another (each started by the last one's on_done) keep the registry small")
    func thousandInSequence() throws {
        let bed = LuaTestbed()
        let before = bed.registryCensus()
        bed.mustRun("""
            n = 0
            local function next_one()
              n = n + 1
              if n > 1000 then return end
              countdown.start{id = "seq", seconds = 0.5, on_tick = function() end, on_done = next_one}
            end
            next_one()
            """)
        try bed.runAll()
        #expect(bed.global("n") == "1001")
        let after = bed.registryCensus()
        #expect(after.entries <= before.entries + 10, "\(before) -> \(after)")
        #expect(after.live <= before.live + 2, "\(before) -> \(after)")
    }

    @Test("references are released however a countdown ends", arguments: [
        ("finished", "h = countdown.start{id = 'x', seconds = 1, on_tick = f, on_done = f}"),
        ("cancelled", "h = countdown.start{id = 'x', seconds = 9, on_tick = f, on_done = f}; h:cancel()"),
        ("cancel_all", "countdown.start{id = 'x', seconds = 9, on_tick = f, on_done = f}; countdown.cancel_all()"),
        ("replaced", "countdown.start{id = 'x', seconds = 9, on_tick = f, on_done = f}; countdown.start{id = 'x', seconds = 1}"),
        ("hook error", "countdown.start{id = 'x', seconds = 9, on_tick = function() error('e') end, on_done = f}"),
        ("done error", "countdown.start{id = 'x', seconds = 1, on_done = function() error('e') end}"),
        ("anonymous", "countdown.start{seconds = 1, on_tick = f}"),
        ("no hooks", "countdown.start{seconds = 1}"),
        ("past at", "countdown.start{at = '2000-01-01T00:00:00Z', on_tick = f, on_done = f}"),
        ("restarted", "h = countdown.start{seconds = 1, on_tick = f, on_done = f}; h:cancel(); h:append(1)"),
    ])
    func everyEnd(_ name: String, _ source: String) throws {
        let bed = LuaTestbed()
        bed.mustRun("f = function() end")
        let before = bed.registryCensus()
        for _ in 0..<200 {
            bed.mustRun(source)
            try bed.runAll()
        }
        bed.mustRun("h = nil")
        let after = bed.registryCensus()
        #expect(after.live <= before.live + 2, "\(name): \(before) -> \(after)")
        #expect(after.entries <= before.entries + 10, "\(name): \(before) -> \(after)")
        #expect(bed.scheduler.activeCount == 0)
    }

    /// References are reused (released keys first): whatever finds a countdown's
    /// hooks by its reference must not bring an ended one's on_tick back.
    @Test("a countdown without on_tick that gets an ended one's reference never calls that on_tick")
    func reusedReferenceForgetsOnTick() throws {
        let bed = LuaTestbed()
        bed.mustRun("""
            old_ticks, seen = 0, 0
            for i = 1, 20 do countdown.start{seconds = 0.5, every = 0.1, on_tick = function() old_ticks = old_ticks + 1 end} end
            """)
        try bed.runAll()
        bed.mustRun("""
            before = old_ticks
            countdown.on("tick", function() seen = seen + 1 end)
            for i = 1, 20 do countdown.start{seconds = 0.5, every = 0.1} end
            """)
        try bed.runAll()
        bed.mustRun("print(old_ticks - before, seen)")
        #expect(bed.lines.last == "0 100")
    }

    @Test("ended countdowns' handles and hooks can be collected")
    func endedAreCollectable() throws {
        let bed = LuaTestbed()
        bed.mustRun("""
            weak = setmetatable({}, {__mode = "v"})
            for i = 1, 50 do
              local hook = function() end
              weak["h" .. i] = countdown.start{seconds = i / 10, on_tick = hook}
              weak["f" .. i] = hook
            end
            collectgarbage(); collectgarbage()
            local n = 0; for _ in pairs(weak) do n = n + 1 end
            print("running", n)
            """)
        try bed.runAll()
        bed.mustRun("""
            collectgarbage(); collectgarbage()
            local n = 0; for _ in pairs(weak) do n = n + 1 end
            print("ended", n)
            """)
        #expect(bed.lines == ["running 100", "ended 0"])
    }
}
