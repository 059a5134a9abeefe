import CountdownCore
import Foundation
import LuaHost
import Testing

/// Lua runs __gc finalizers inside almost any allocation, so script code can reach the
/// host from the middle of a host function or a hook dispatch.
@Suite("__gc finalizers that call into the countdown library")
struct FinalizerTests {
    @Test("finalizers that start and cancel countdowns while hooks run leave the host consistent")
    func finalizersDuringDispatch() throws {
        let bed = LuaTestbed()
        bed.mustRun("""
            finalized = 0
            local function garbage(i)
              setmetatable({}, {__gc = function()
                finalized = finalized + 1
                if i % 3 == 0 then countdown.start{seconds = 0.5, on_tick = function() end} end
                if i % 5 == 0 then local l = countdown.list(); if l[1] then l[1]:cancel() end end
                if i % 7 == 0 then countdown.start{id = "gc", seconds = 1, on_done = function() end} end
              end})
            end
            for i = 1, 40 do
              countdown.start{seconds = 1 + i / 10, every = 0.1, on_tick = function(t)
                for j = 1, 20 do garbage(i * 100 + j) end
                local s = countdown.format(t, "{s}.{t}") .. tostring(i)
              end, on_done = function() garbage(i) end}
            end
            """)
        try bed.runAll(limit: 1_000_000)
        bed.mustRun("collectgarbage(); collectgarbage()")
        try bed.runAll(limit: 1_000_000)
        #expect(Int(bed.global("finalized") ?? "0") ?? 0 > 0)
        #expect(bed.errors.isEmpty)
        #expect(bed.top == 0)
        #expect(bed.scheduler.activeCount == 0)
    }

    @Test("finalizers that call the library while the host is released run safely")
    func finalizersAtClose() async {
        await #expect(processExitsWith: .success) {
            let clock = VirtualClock()
            let scheduler = Scheduler(clock: clock)
            do {
                let host = LuaHost(scheduler: scheduler)
                host.reportError = { _ in }
                let source = """
                    keep = setmetatable({}, {__gc = function()
                      countdown.cancel_all()
                      countdown.start{seconds = 1, on_tick = function() end}
                      local _ = countdown.list(), countdown.format(1, "{s}")
                    end})
                    countdown.start{seconds = 5, on_tick = function() end, on_done = function() end}
                    """
                guard host.runScript(source: Data(source.utf8), chunkName: "=gc") == nil else { exit(EXIT_FAILURE) }
            }
            scheduler.advance(clock, to: 10 * Time.nanosecondsPerSecond)
        }
    }
}
