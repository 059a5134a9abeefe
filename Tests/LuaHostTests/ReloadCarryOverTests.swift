import CLua
import CountdownCore
import Foundation
import LuaHost
import Testing

/// `cdscript run --watch`: a reloaded script runs in a fresh Lua state on a fresh
/// scheduler, and takes over the countdowns of the version it replaces.
@Suite("A script reloaded on save: countdowns carried to the new version")
struct ReloadCarryOverTests {
    /// One version of a script: its own host and scheduler on the shared clock.
    final class Version {
        let scheduler: Scheduler
        let host: LuaHost

        init(_ clock: VirtualClock, source: String, carrying previous: Version? = nil) throws {
            scheduler = Scheduler(clock: clock)
            host = LuaHost(scheduler: scheduler)
            host.reportError = { Issue.record("hook error: \($0)") }
            if let previous { host.carryOver = CountdownCarryOver(previous.host.carriedCountdowns()) }
            if let failure = host.runScript(source: Data(source.utf8), chunkName: "=script", arguments: ["script.lua"]) {
                throw ScriptError(message: failure.message)
            }
            host.adoptUnclaimedCountdowns()
        }

        func advance(to seconds: Double) { scheduler.advance(scheduler.clock as! VirtualClock, to: ns(seconds)) }

        /// `tostring` of a Lua expression in this version's state.
        func eval(_ expression: String) -> String? {
            guard host.runScript(source: Data("__eval = tostring(\(expression))".utf8), chunkName: "=eval") == nil else { return nil }
            let L = host.vm.state
            let top = L.top
            defer { L.setTop(top) }
            lua_getglobal(L.raw, "__eval")
            return L.string(at: -1)
        }
    }

    struct ScriptError: Error { let message: String }

    static func script(formatter prefix: String) -> String {
        """
        countdown.formatter("clock", function(t) return "\(prefix) " .. countdown.format(t, "{S}") end)
        shown = {}
        countdown.start{ id = "tea", seconds = 10, on_tick = function(t)
          shown[#shown + 1] = countdown.format(t, "clock") .. string.format(" %.2f", t.progress)
        end }
        """
    }

    @Test("the next tick uses the new version's formatter, with the remaining time, length and progress untouched")
    func formatterOfNewVersion() throws {
        let clock = VirtualClock(boot: 0, wall: LuaTestbed.wallStart)
        let v1 = try Version(clock, source: Self.script(formatter: "v1"))
        v1.advance(to: 3.5)
        #expect(v1.eval("table.concat(shown, ',')") == "v1 10 0.00,v1 9 0.10,v1 8 0.20,v1 7 0.30")
        let v2 = try Version(clock, source: Self.script(formatter: "v2"), carrying: v1)
        // The new start's first tick: 6.5 s left, not 10.
        #expect(v2.eval("countdown.get('tea'):remaining()") == "6.5")
        v2.advance(to: 5)
        #expect(v2.eval("table.concat(shown, ',')") == "v2 6 0.35,v2 6 0.40,v2 5 0.50")
        v2.advance(to: 10)
        #expect(v2.eval("countdown.get('tea')") == "nil")
        #expect(v2.eval("shown[#shown]") == "v2 1 0.90")
    }

    @Test("a paused countdown stays paused with its time; anonymous countdowns are matched in start order; an id the new version does not start runs on without hooks")
    func pausedAnonymousAndUnclaimed() throws {
        let clock = VirtualClock(boot: 0, wall: LuaTestbed.wallStart)
        let v1 = try Version(clock, source: """
            countdown.start{ id = "held", seconds = 30 }:pause()
            countdown.start{ seconds = 100 }
            countdown.start{ seconds = 200 }
            countdown.start{ id = "pressed", seconds = 50, every = 5 }
            """)
        v1.advance(to: 20)
        let v2 = try Version(clock, source: """
            countdown.start{ id = "held", seconds = 30 }
            first = countdown.start{ seconds = 100 }
            second = countdown.start{ seconds = 200 }
            third = countdown.start{ seconds = 300 }
            """, carrying: v1)
        #expect(v2.eval("countdown.get('held'):state()") == "paused")
        #expect(v2.eval("countdown.get('held'):remaining()") == "30.0")
        #expect(v2.eval("first:remaining()") == "80.0")
        #expect(v2.eval("second:remaining()") == "180.0")
        #expect(v2.eval("third:remaining()") == "300.0")
        #expect(v2.eval("countdown.get('pressed'):remaining()") == "30.0")
        v2.advance(to: 50)
        #expect(v2.eval("countdown.get('pressed')") == "nil", "it ended at its own deadline")
    }

    @Test("a later start of a carried id, after the main chunk, is a fresh start")
    func laterStartIsFresh() throws {
        let clock = VirtualClock(boot: 0, wall: LuaTestbed.wallStart)
        let v1 = try Version(clock, source: "countdown.start{ id = 'tea', seconds = 10 }")
        v1.advance(to: 4)
        let v2 = try Version(clock, source: "function again() countdown.start{ id = 'tea', seconds = 10 } end", carrying: v1)
        #expect(v2.eval("countdown.get('tea'):remaining()") == "6.0")
        _ = v2.eval("again()")
        #expect(v2.eval("countdown.get('tea'):remaining()") == "10.0")
    }

    @Test("an append that starts an ended countdown again takes over nothing: the carried countdowns stay for the starts that follow")
    func restartTakesNothingOver() throws {
        let clock = VirtualClock(boot: 0, wall: LuaTestbed.wallStart)
        let v1 = try Version(clock, source: """
            countdown.start{ seconds = 60 }
            countdown.start{ seconds = 30 }
            """)
        v1.advance(to: 10)
        let v2 = try Version(clock, source: """
            restarted = countdown.start{ seconds = 60 }
            restarted:cancel()
            restarted:append(5)
            second = countdown.start{ seconds = 30 }
            """, carrying: v1)
        #expect(v2.eval("restarted:remaining()") == "5.0", "a restart is fresh")
        #expect(v2.eval("second:remaining()") == "20.0", "the second anonymous start takes the second carried countdown")
    }
}
