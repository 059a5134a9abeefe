import CLua
import LuaHost
import Testing

@Suite("The main Lua stack is balanced whenever Lua is idle")
struct StackBalanceTests {
    @Test("after scripts that succeed or fail", arguments: [
        "countdown.start{seconds = 1}",
        "return 1, 2, 3, countdown.start{seconds = 1}",
        "local x = = 1",
        "error('top-level')",
        "error({})",
        "countdown.start{}",
        "countdown.start(5)",
        "countdown.start{seconds = 5, bogus = 1}",
        "countdown.format(1, '{nope}')",
        "countdown.get(nil)",
        "countdown.start{seconds = 1}.append(1)",
        "pcall(countdown.start, {}) pcall(countdown.format, 1, '{') pcall(countdown.get)",
        "countdown.start{seconds = 1, on_tick = function() error('hook') end}",
        "countdown.start{seconds = 1, on_tick = function() countdown.start{} end}",
        "countdown.start{seconds = 1}:cancel() countdown.cancel_all()",
        "for i = 1, 100 do countdown.start{id = 'same', seconds = 1, on_tick = function() end} end",
    ])
    func afterScripts(_ source: String) {
        let bed = LuaTestbed()
        _ = bed.run(source)
        #expect(bed.top == 0)
        bed.advance(to: 10)
        #expect(bed.top == 0)
    }

    @Test("across ticks, ends and hook errors while advancing")
    func acrossAdvances() throws {
        let bed = LuaTestbed()
        bed.mustRun("""
            for i = 1, 20 do
              countdown.start{seconds = i / 2, every = 0.1,
                on_tick = function(t)
                  if i % 3 == 0 and t.remaining < 0.5 then error("tick " .. i) end
                  if i % 5 == 0 then pcall(countdown.start, {seconds = -1}) end
                  if i % 7 == 0 then pcall(countdown.format, t, "{zz}") end
                end,
                on_done = function(t, r)
                  if i % 4 == 0 then error({}) end
                  if i % 6 == 0 then countdown.start{seconds = 0.3, on_tick = function() end} end
                end}
            end
            """)
        #expect(bed.top == 0)
        while bed.scheduler.next(bed.clock) != nil {
            #expect(bed.top == 0)
            if bed.top != 0 { break }
        }
        #expect(bed.host.hookErrorCount > 0)
        #expect(bed.top == 0)
    }

    @Test("after a stall's catch-up pass and a cancel_all with failing on_done hooks")
    func stallAndCancelAll() {
        let bed = LuaTestbed()
        bed.mustRun("""
            for i = 1, 10 do
              countdown.start{seconds = 100, on_tick = function() end, on_done = function() error("d") end}
            end
            """)
        bed.stall(for: 30)
        #expect(bed.top == 0)
        bed.mustRun("countdown.cancel_all()")
        #expect(bed.top == 0)
        #expect(bed.host.hookErrorCount == 10)
    }

    @Test("LuaVM.top counts what sits above the permanent traceback handler in slot 1")
    func vmTop() {
        let bed = LuaTestbed()
        bed.mustRun("countdown.start{seconds = 1}")
        #expect(bed.host.vm.top == 0)
        let L = bed.host.vm.state
        #expect(lua_gettop(L.raw) == LuaVM.tracebackHandlerIndex)
        #expect(lua_type(L.raw, LuaVM.tracebackHandlerIndex) == LUA_TFUNCTION)
    }
}
