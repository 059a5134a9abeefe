import CountdownCore
import LuaHost
import Testing

/// Issue 29, "Errors you can see": a limit hit in a hook that runs inside the
/// main chunk (the first tick runs inside `countdown.start`, an on_done inside
/// `cancel`) is that hook's error, as a plain `error()` there is: its countdown
/// stops; the main chunk and the other countdowns go on. The instruction budget
/// stands in for the CPU-time limit here: it is deterministic.
@Suite("A limit hit in a hook inside the main chunk stops only that hook's countdown")
struct FirstTickLimitTests {
    static let budget: Int64 = 1_000_000
    static let limits = ScriptLimits(memoryLimit: 64 * 1024 * 1024, instructionBudget: budget)

    @Test("the issue's example: a spinning first tick stops 'spin'; the main chunk and a healthy countdown run on",
          arguments: ["while true do end",
                      "while true do pcall(function() while true do end end) end",
                      "coroutine.wrap(function() while true do end end)()"])
    func spinningFirstTick(spin: String) {
        let bed = HostBed(limits: Self.limits)
        let failure = bed.run("""
            countdown.start{ id = "spin", seconds = 3, on_tick = function() \(spin) end,
                             on_done = function(_, why) print("spin", why) end }
            countdown.start{ id = "healthy", seconds = 2, on_done = function(_, why) print("healthy", why) end }
            print("main chunk goes on", countdown.get("spin") == nil)
            """)
        #expect(failure == nil, "\(failure?.message ?? "")")
        #expect(bed.errors.count == 1, "\(bed.errors)")
        #expect(bed.errors.first?.hasPrefix("cdscript: error in on_tick of countdown \"spin\": ") == true, "\(bed.errors)")
        #expect(bed.errors.first?.contains("instruction budget exceeded") == true, "\(bed.errors)")
        bed.advance(to: 10)
        #expect(bed.lines == ["main chunk goes on true", "healthy finished"], "\(bed.lines)")
        #expect(bed.top == 0)
    }

    @Test("after the hook's failure the main chunk keeps the budget it had, and the budget still holds for it")
    func mainChunkKeepsItsBudget() {
        let bed = HostBed(limits: Self.limits)
        // About 40% of the budget before and after the failing hook: together more
        // than the hook left, less than the budget.
        let failure = bed.run("""
            local function spend() local x = 0 for i = 1, 100000 do x = x + i end end
            spend()
            countdown.start{ seconds = 3, on_tick = function() while true do end end }
            spend()
            print("spent twice")
            """)
        #expect(failure == nil, "\(failure?.message ?? "")")
        #expect(bed.lines == ["spent twice"])
        let runaway = bed.run("""
            countdown.start{ seconds = 3, on_tick = function() while true do end end }
            while true do end
            """)
        #expect(runaway?.message.contains("instruction budget exceeded") == true, "\(runaway?.message ?? "ran to its end")")
        #expect(bed.errors.count == 2, "\(bed.errors)")
    }

    @Test("a loop of spinning first ticks cannot multiply the budget: after four the main chunk runs out too")
    func failuresAreBounded() {
        let bed = HostBed(limits: Self.limits)
        let failure = bed.run("""
            started = 0
            for i = 1, 100 do
              started = i
              countdown.start{ seconds = 3, on_tick = function() while true do end end }
            end
            """)
        #expect(failure?.message.contains("instruction budget exceeded") == true, "\(failure?.message ?? "ran to its end")")
        #expect(bed.errors.count == 5, "\(bed.errors)")
        bed.mustRun("print(started)")
        #expect(bed.lines == ["5"])
    }

    @Test("the memory limit hit in a first tick is that hook's error too; its garbage goes, the main chunk runs on")
    func memoryInFirstTick() {
        let bed = HostBed(limits: ScriptLimits(memoryLimit: 16 * 1024 * 1024, instructionBudget: 0))
        let failure = bed.run("""
            countdown.start{ id = "hog", seconds = 3, on_tick = function()
              local t = {} for i = 1, 1e9 do t[i] = ("x"):rep(64) .. i end
            end }
            local kept = {} for i = 1, 1000 do kept[i] = i end
            print("main chunk goes on", #kept)
            """)
        #expect(failure == nil, "\(failure?.message ?? "")")
        #expect(bed.lines == ["main chunk goes on 1000"])
        #expect(bed.errors.count == 1 && bed.errors[0].contains("memory limit exceeded"), "\(bed.errors)")
    }

    @Test("an on_done run inside cancel, and an on_error handler, that run out fail alone")
    func nestedDoneAndHandler() {
        let bed = HostBed(limits: Self.limits)
        let failure = bed.run("""
            countdown.start{ seconds = 3, on_done = function() while true do end end }:cancel()
            countdown.start{ id = "h", seconds = 3, on_tick = function() error("boom") end,
                             on_error = function() while true do end end }
            print("after both")
            """)
        #expect(failure == nil, "\(failure?.message ?? "")")
        #expect(bed.lines == ["after both"])
        #expect(bed.errors.filter { $0.contains("instruction budget exceeded") }.count == 2, "\(bed.errors)")
        #expect(bed.errors.contains { $0.contains("error in on_done of an anonymous countdown") }, "\(bed.errors)")
        #expect(bed.errors.contains { $0.contains("error in on_error of countdown \"h\"") }, "\(bed.errors)")
    }
}
