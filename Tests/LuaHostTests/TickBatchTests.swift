import LuaHost
import Testing

/// Plain ticks of shared on_tick functions due in one pass run in a row inside one
/// protected call (`cd_run_tick_batch`). A row must behave exactly as the same
/// ticks delivered one by one: order, errors, budgets, ends, `now`.
@Suite("Ticks in a row: one protected call for many hooks")
struct TickBatchTests {
    @Test("hooks that may keep t and hooks that may not tick in start order within each pass")
    func mixedOrder() throws {
        let bed = LuaTestbed()
        bed.mustRun("""
            seen, kept = {}, {}
            local function plain(t) seen[#seen + 1] = "p" end
            local function keeper(t) kept[#kept + 1] = t; seen[#seen + 1] = "k" end
            countdown.start{ seconds = 0.3, every = 0.1, on_tick = plain }
            countdown.start{ seconds = 0.3, every = 0.1, on_tick = keeper }
            countdown.start{ seconds = 0.3, every = 0.1, on_tick = plain }
            """)
        try bed.runAll()
        bed.mustRun("print(table.concat(seen))")
        #expect(bed.lines.last == "pkppkppkp")
    }

    @Test("an error in the middle of a row stops that countdown only; the rest of the row ticks in order")
    func errorMidRow() throws {
        let bed = LuaTestbed()
        bed.mustRun("""
            seen = {}
            local function tick(t)
              seen[#seen + 1] = t.id
              if t.id == "b" and t.remaining < 0.25 then error("boom " .. t.id) end
            end
            for _, id in ipairs({ "a", "b", "c" }) do countdown.start{ id = id, seconds = 0.3, every = 0.1, on_tick = tick } end
            """)
        try bed.runAll()
        bed.mustRun("print(table.concat(seen, ' '))")
        #expect(bed.lines.last == "a b c a b c a c")
        #expect(bed.errors.count == 1)
        #expect(bed.errors.first?.contains("on_tick of countdown \"b\"") == true, "\(bed.errors)")
        #expect(bed.errors.first?.contains("test:4: boom b") == true, "\(bed.errors)")
    }

    @Test("the traceback of a hook that failed in a row ends at the hook, as for one called alone")
    func tracebackEndsAtHook() throws {
        let bed = LuaTestbed()
        bed.mustRun("""
            local function tick(t) if t.remaining < 0.95 then error("late") end end
            for i = 1, 3 do countdown.start{ seconds = 1, every = 0.1, on_tick = tick } end
            """)
        bed.advance(to: 0.1)
        #expect(bed.errors.count == 3)
        for error in bed.errors {
            let lines = error.split(separator: "\n")
            #expect(lines.last?.hasSuffix("in function <test:1>") == true, "\(error)")
            #expect(!error.contains("[C]: in ?"), "\(error)")
        }
    }

    @Test("a stack overflow in a hook of a row fails that hook at once, with a traceback that skips levels")
    func stackOverflowInRow() throws {
        let bed = LuaTestbed()
        bed.mustRun("""
            local function deep(n) return deep(n + 1) + 1 end
            local function tick(t) if t.remaining < 0.95 then deep(1) end end
            for i = 1, 2 do countdown.start{ seconds = 1, every = 0.1, on_tick = tick } end
            """)
        bed.advance(to: 0.1)
        #expect(bed.errors.count == 2)
        #expect(bed.errors.first?.contains("stack overflow") == true, "\(bed.errors.first ?? "")")
        #expect(bed.errors.first?.contains("(skipping") == true)
        #expect(bed.errors.first?.hasSuffix("in function <test:2>") == true, "\(bed.errors.first?.suffix(200) ?? "")")
    }

    @Test("a countdown cancelled by an earlier hook of the same row does not tick")
    func cancelledEarlierInRow() throws {
        let bed = LuaTestbed()
        bed.mustRun("""
            seen = {}
            local function tick(t)
              seen[#seen + 1] = t.id
              if t.id == "a" and t.remaining < 0.25 then countdown.get("b"):cancel() end
            end
            for _, id in ipairs({ "a", "b", "c" }) do countdown.start{ id = id, seconds = 0.3, every = 0.1, on_tick = tick } end
            """)
        try bed.runAll()
        bed.mustRun("print(table.concat(seen, ' '))")
        #expect(bed.lines.last == "a b c a c a c")
    }

    @Test("a countdown that cancels itself in its own hook, in a row, leaves no reference behind")
    func selfCancelInRow() throws {
        let bed = LuaTestbed()
        let before = bed.registryCensus()
        bed.mustRun("""
            handles = {}
            local function tick(t) if t.remaining < 0.95 then handles[t.id]:cancel() end end
            for i = 1, 50 do handles["c" .. i] = countdown.start{ id = "c" .. i, seconds = 1, every = 0.1, on_tick = tick } end
            """)
        bed.advance(to: 0.1)
        bed.mustRun("handles = nil print(#countdown.list())")
        #expect(bed.lines.last == "0")
        let after = bed.registryCensus()
        #expect(after.live <= before.live + 2, "\(before) -> \(after)")
    }

    @Test("countdown.now() in a hook of a row reads that tick's instant, not the pass's")
    func nowInRow() throws {
        let bed = LuaTestbed()
        bed.mustRun("""
            seen, base = {}, countdown.now()
            function tick(t) seen[#seen + 1] = ("%.2f"):format(countdown.now() - base) end
            countdown.start{ seconds = 1, every = 0.1, on_tick = tick }
            """)
        bed.advance(to: 0.05)
        bed.mustRun("countdown.start{ seconds = 1, every = 0.1, on_tick = tick }")
        // No ticks until 0.17, then one pass: the ticks of 0.10 and 0.15 in a row.
        bed.stall(for: 0.12)
        bed.mustRun("print(table.concat(seen, ' '))")
        #expect(bed.lines.last == "0.00 0.05 0.10 0.15")
    }

    @Test("each hook of a row gets a budget of its own; one over it fails alone")
    func budgetPerHookInRow() throws {
        let bed = LuaTestbed(limits: ScriptLimits(instructionBudget: 50_000))
        bed.mustRun("""
            -- Nothing to spin for the first ticks, which share the main chunk's budget.
            spin, usual = {}, 0
            local function tick(t)
              local n = spin[t.id] or usual
              local x = 0 for i = 1, n do x = x + i end
            end
            for i = 1, 20 do countdown.start{ id = "c" .. i, seconds = 0.3, every = 0.1, on_tick = tick } end
            usual, spin.c7 = 2000, 100000
            """)
        try bed.runAll()
        #expect(bed.errors.count == 1, "\(bed.errors)")
        #expect(bed.errors.first?.contains("countdown \"c7\"") == true && bed.errors.first?.contains("instruction budget exceeded") == true,
                "\(bed.errors)")
    }

    @Test("a shared hook's number given to another function in the middle of a row calls that function from then on")
    func sharedNumberReusedInRow() throws {
        let bed = LuaTestbed()
        bed.mustRun("""
            seen = {}
            local g = function(t) seen[#seen + 1] = "g" end
            local a
            local f = function(t)
              seen[#seen + 1] = "f"
              if t.remaining < 1.2 then
                -- f's last user ends, so g takes its number; g's second tick is due in this pass.
                a:cancel()
                countdown.start{ seconds = 1, every = 0.1, on_tick = g }
              end
            end
            a = countdown.start{ seconds = 1.5, every = 0.5, on_tick = f }
            """)
        // One pass at 0.65: f's tick of 0.5, then in its row g's of 0.6.
        bed.stall(for: 0.65)
        bed.mustRun("print(table.concat(seen, ' '))")
        #expect(bed.lines.last == "f f g g")
    }
}
