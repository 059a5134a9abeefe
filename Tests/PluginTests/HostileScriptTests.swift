import CLua
import CLuaShim
import CountdownCore
import Foundation
import LuaHost
import Testing

/// Scripts that try to take the host down. Each must end with a clear error for
/// the offending callback only: the other countdowns keep running, the Lua stack
/// is balanced, and stored countdowns are kept.
@Suite("Hostile scripts end their own callback, never the host")
struct HostileScriptTests {
    static let limits = ScriptLimits(memoryLimit: 32 * 1024 * 1024, instructionBudget: 2_000_000)

    /// A bed with a bystander: `steady` ticks every second for 5 s and is persistent.
    func bedWithBystander(limits: ScriptLimits = limits) -> (HostBed, InMemoryCountdownStore) {
        let bed = HostBed(limits: limits)
        let store = InMemoryCountdownStore()
        bed.host.store.persistence = store
        bed.mustRun("""
            countdown.start{ id = "steady", seconds = 5, persist = true,
              on_tick = function(t) print("steady", t.seconds) end,
              on_done = function(t, reason) print("steady done", reason) end }
            """)
        return (bed, store)
    }

    /// Runs `hostile` (which starts a countdown failing at its first tick after
    /// the start, at 1 s), advances to 6 s, and checks the bystander.
    func expectContained(_ hostile: String, errorMentions needle: String, limits: ScriptLimits = limits, sourceLocation: SourceLocation = #_sourceLocation) {
        let (bed, store) = bedWithBystander(limits: limits)
        if let failure = bed.run(hostile) {
            Issue.record("the hostile script's main chunk failed: \(failure.message)", sourceLocation: sourceLocation)
        }
        #expect(store.countdowns["steady"] != nil, "stored before", sourceLocation: sourceLocation)
        bed.advance(to: 6)
        #expect(bed.lines.filter { $0.hasPrefix("steady") } == ["steady 5", "steady 4", "steady 3", "steady 2", "steady 1", "steady done finished"], sourceLocation: sourceLocation)
        #expect(bed.errors.contains { $0.contains(needle) }, "errors: \(bed.errors)", sourceLocation: sourceLocation)
        #expect(bed.top == 0, sourceLocation: sourceLocation)
        // The store saw it through to its end.
        #expect(store.countdowns["steady"]?.state == .finished, sourceLocation: sourceLocation)
    }

    @Test("an infinite loop in on_tick ends with a budget error naming the line")
    func infiniteLoop() {
        expectContained("""
            countdown.start{ id = "loop", seconds = 3, on_tick = function(t)
              if t.seconds < 3 then while true do end end
            end }
            """, errorMentions: "test:2: instruction budget exceeded")
    }

    @Test("a budget error cannot be caught and ignored: pcall in a loop still ends the callback")
    func budgetIsSticky() {
        expectContained("""
            countdown.start{ id = "sly", seconds = 3, on_tick = function(t)
              if t.seconds < 3 then
                for i = 1, 1e9 do pcall(function() while true do end end) end
              end
            end }
            """, errorMentions: "instruction budget exceeded")
    }

    @Test("a memory bomb in on_tick ends with a memory-limit error, and the memory comes back")
    func memoryBomb() {
        let (bed, _) = bedWithBystander(limits: ScriptLimits(memoryLimit: 32 << 20))
        bed.mustRun("""
            countdown.start{ id = "bomb", seconds = 3, on_tick = function(t)
              if t.seconds < 3 then local hoard = {} for i = 1, 1e9 do hoard[i] = {i, i, i} end end
            end }
            """)
        bed.advance(to: 6)
        #expect(bed.errors.contains { $0.contains("countdown \"bomb\"") && $0.contains("memory limit exceeded") }, "\(bed.errors)")
        #expect(bed.lines.last == "steady done finished")
        bed.mustRun("collectgarbage()")
        #expect(bed.host.vm.memoryInUse < 8 * 1024 * 1024, "\(bed.host.vm.memoryInUse) bytes still held")
    }

    @Test("a memory bomb in the main chunk is a runtime failure with the memory-limit message")
    func memoryBombAtTopLevel() {
        let bed = HostBed(limits: ScriptLimits(memoryLimit: 32 << 20))
        let failure = bed.run("local s = {} for i = 1, 1e9 do s[i] = tostring(i) .. 'padding-padding' end")
        #expect(failure?.kind == .runtime)
        #expect(failure?.message.contains("memory limit exceeded") == true, "\(failure?.message ?? "")")
        #expect(bed.top == 0)
        bed.mustRun("print('still usable')")
        #expect(bed.lines.last == "still usable")
    }

    @Test("deep recursion ends with a stack overflow error")
    func deepRecursion() {
        expectContained("""
            local function down(n) return 1 + down(n + 1) end
            countdown.start{ id = "deep", seconds = 3, on_tick = function(t) if t.seconds < 3 then down(1) end end }
            """, errorMentions: "stack overflow", limits: ScriptLimits(memoryLimit: 512 << 20, instructionBudget: 100_000_000))
    }

    @Test("an error inside the error handler (a __tostring that raises) is still reported")
    func errorInErrorHandler() {
        expectContained("""
            local evil = setmetatable({}, { __tostring = function() error("no string for you") end })
            countdown.start{ id = "evil", seconds = 3, on_tick = function(t) if t.seconds < 3 then error(evil) end end }
            """, errorMentions: "countdown \"evil\"")
    }

    @Test("an error in on_done is reported and the others run on")
    func errorInOnDone() {
        expectContained("""
            countdown.start{ id = "sour", seconds = 2, on_done = function() error("bitter end") end }
            """, errorMentions: "test:1: bitter end")
    }

    @Test("a coroutine yielding from a hook or across a host call gets a clear error")
    func yieldAcrossHostCall() {
        expectContained("""
            countdown.start{ id = "yield", seconds = 3, on_tick = function(t)
              if t.seconds < 3 then coroutine.yield("out") end
            end }
            """, errorMentions: "attempt to yield from outside a coroutine")
        let bed = HostBed(limits: Self.limits)
        bed.mustRun("""
            countdown.formatter("yielder", function(t) coroutine.yield() end)
            local co = coroutine.create(function() return countdown.format(3, "yielder") end)
            local ok, message = coroutine.resume(co)
            print(ok, message)
            """)
        #expect(bed.lines.last?.hasPrefix("false") == true)
        #expect(bed.lines.last?.contains("attempt to yield across a C-call boundary") == true, "\(bed.lines)")
        #expect(bed.top == 0)
    }

    @Test("huge strings: string.rep is capped, and growing a string past the memory limit fails cleanly")
    func hugeStrings() {
        let bed = HostBed(limits: Self.limits)
        bed.mustRun("""
            print(pcall(string.rep, "x", 1e12))
            print(pcall(function() return ("ab"):rep(3e7, ",") end))
            local ok, e = pcall(function() local s = "x" for i = 1, 40 do s = s .. s end return #s end)
            print(ok, e)
            print(#("x"):rep(1000))
            """)
        let lines = bed.lines
        #expect(lines.count == 4)
        // Past what Lua itself builds: Lua's message; past the cap: Lua's message and the cap
        // (with the caller's line for a tail call, as lua5.4 gives it).
        #expect(lines[0] == "false resulting string too large")
        #expect(lines[1] == "false test:2: resulting string too large (89999999 bytes; cdscript's string.rep makes at most 67108864)", "\(lines[1])")
        #expect(lines[2] == "false not enough memory", "\(lines[2])")
        #expect(lines[3] == "1000")
    }

    @Test("handle methods after cancel say what happened and do not raise")
    func methodsAfterCancel() {
        let bed = HostBed(limits: Self.limits)
        bed.mustRun("""
            local h = countdown.start{ id = "gone", seconds = 10 }
            print(h:cancel(), h:cancel(), h:pause(), h:resume(), h:remaining(), h:state(), h.id, tostring(h))
            print(pcall(h.pause))
            print(pcall(h.append, h, 0))
            print(pcall(h.append, h, -1))
            """)
        #expect(bed.lines[0] == "true false false false 0.0 cancelled gone countdown \"gone\" (cancelled)")
        #expect(bed.lines[1].contains("call it as a method with a colon"))
        #expect(bed.lines[2].contains("'seconds' must be a number of seconds other than 0"))
        // Nothing is left to take off an ended countdown: no restart, no error.
        #expect(bed.lines[3] == "true countdown \"gone\" (cancelled)", "\(bed.lines[3])")
    }

    /// Values of every type, for argument fuzzing.
    static let oddValues = [
        "nil", "true", "0", "-1", "1e308", "0/0", "math.huge", "''", "('x'):rep(10000)", "{}", "{1,2,3}",
        "{seconds = 'x'}", "{seconds = 1, on_tick = 5}", "print", "coroutine.create(print)", "setmetatable({}, {__index = error})",
        "countdown.start{seconds = 1}",
    ]

    @Test("every function the host installs survives wrong types: it returns or raises a string error")
    func wrongTypesEverywhere() throws {
        let bed = HostBed(limits: Self.limits)
        // Every function reachable from countdown, the handle methods and the other host globals.
        let values = Self.oddValues.joined(separator: ", ")
        bed.mustRun("""
            local odd = { \(values) }
            local n = \(Self.oddValues.count)
            local h = countdown.start{ id = "victim", seconds = 100 }
            local targets = { use = use }
            for name, fn in pairs(countdown) do targets["countdown." .. name] = fn end
            for _, name in ipairs({ "append", "pause", "resume", "cancel", "remaining", "state" }) do
              targets["h:" .. name] = function(...) return h[name](h, ...) end
              targets["h." .. name] = function(...) return h[name](...) end
            end
            calls, bad = 0, {}
            for name, fn in pairs(targets) do
              for i = 1, n do
                for j = 1, n do
                  calls = calls + 1
                  local ok, e = pcall(fn, odd[i], odd[j])
                  if not ok and type(e) ~= "string" then bad[#bad + 1] = name .. " raised a " .. type(e) end
                  if not ok and #e > 2000 then bad[#bad + 1] = name .. " raised a very long message" end
                end
              end
            end
            countdown.cancel_all()
            print(calls, #bad, table.concat(bad, "; "))
            """)
        let summary = bed.lines.last ?? ""
        let parts = summary.split(separator: " ", omittingEmptySubsequences: false)
        #expect(parts.count >= 2 && parts[1] == "0", "\(summary.prefix(3000))")
        #expect((Int(parts.first ?? "") ?? 0) > 1000, "\(summary)")
        #expect(bed.top == 0)
        // The host still works.
        bed.mustRun("countdown.start{ id = 'after', seconds = 1, on_done = function() print('after done') end }")
        bed.advance(to: 1000)
        #expect(bed.lines.last == "after done")
    }
}
