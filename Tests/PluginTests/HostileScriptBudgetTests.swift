import CLua
import CLuaShim
import CountdownCore
import Foundation
import LuaHost
import Testing

/// One callback gets one budget, with everything it causes: coroutines it
/// creates, nested callbacks. A script's own debug.sethook coexists with the
/// host's count hook. Run with and without the sandbox (which removes debug).
@Suite("The budget covers all the code a callback causes")
struct HostileScriptBudgetTests {
    static let budget: Int64 = 1_000_000

    static func limits(sandbox: Bool) -> ScriptLimits {
        ScriptLimits(memoryLimit: 64 * 1024 * 1024, instructionBudget: budget, sandbox: sandbox)
    }

    @Test("a tree of short coroutines (each under the hook's period) ends with the budget error", arguments: [false, true])
    func shortCoroutines(sandbox: Bool) {
        let bed = HostBed(limits: Self.limits(sandbox: sandbox))
        // 150 instructions per coroutine, far fewer than the count hook's period of 1000.
        let failure = bed.run("""
            local made = 0
            local function leaf() local x = 0 for i = 1, 30 do x = x + i end made = made + 1 return x end
            -- 100,000 x 2 coroutines of ~150 instructions: 30 times the budget.
            for n = 1, 100000 do coroutine.wrap(leaf)() local co = coroutine.create(leaf) coroutine.resume(co) end
            """)
        #expect(failure?.message.contains("instruction budget exceeded") == true, "\(failure?.message ?? "ran to its end")")
        #expect(bed.top == 0)
    }

    @Test("nested callbacks share the outer budget instead of multiplying it", arguments: [false, true])
    func nestedCallbacks(sandbox: Bool) {
        let bed = HostBed(limits: Self.limits(sandbox: sandbox))
        // Each level spins about 40% of the budget, starts a countdown and cancels
        // it: its on_done (the next level) runs inside the cancel.
        let failure = bed.run("""
            depth = 0
            function spin() local x = 0 for i = 1, 100000 do x = x + i end end
            local function chain()
              depth = depth + 1
              spin()
              countdown.start{ seconds = 10, on_done = chain }:cancel()
            end
            ok, err = pcall(chain)
            """)
        // The level that ran out fails alone (its on_done's error, issue 29): the
        // levels that called it, and the main chunk, go on with what they had left.
        #expect(failure == nil, "\(failure?.message ?? "")")
        #expect(bed.reports.errors.count == 1, "\(bed.reports.errors)")
        #expect(bed.reports.errors.first?.contains("instruction budget exceeded") == true, "\(bed.reports.errors)")
        bed.mustRun("print(depth)")
        let line = bed.lines.first ?? ""
        let depth = Int(line.split(separator: " ").first ?? "") ?? -1
        // With a fresh budget per nested callback the chain would run ~100 deep
        // (the C stack's limit on nesting); with one shared budget it stops by ~3.
        #expect(depth >= 1 && depth <= 6, "\(line) errors: \(bed.reports.errors)")
    }

    @Test("debug.sethook keeps the host's budget, survives callbacks, and gethook returns the script's own hook")
    func scriptHook() {
        let bed = HostBed(limits: Self.limits(sandbox: false))
        bed.mustRun("""
            print("before", debug.gethook())
            calls = 0
            local function hook(event) calls = calls + 1 end
            debug.sethook(hook, "", 100)
            local f, mask, count = debug.gethook()
            print("own", f == hook, mask, count)
            countdown.start{ seconds = 3, on_tick = function() local x = 0 for i = 1, 1000 do x = x + i end end }
            """)
        let afterStart = bed.run("return 1")
        #expect(afterStart == nil)
        bed.advance(to: 2.5)
        bed.mustRun("""
            print("after ticks", calls > 0, debug.gethook() ~= nil)
            """)
        // The host's budget still holds with the script's hook in place.
        let spin = bed.run("while true do end")
        #expect(spin?.message.contains("instruction budget exceeded") == true, "\(spin?.message ?? "ran")")
        bed.mustRun("""
            debug.sethook()
            print("removed", debug.gethook())
            """)
        let spinAgain = bed.run("while true do end")
        #expect(spinAgain?.message.contains("instruction budget exceeded") == true)
        #expect(bed.lines == ["before nil", "own true  100", "after ticks true true", "removed nil"], "\(bed.lines)")
    }
}
