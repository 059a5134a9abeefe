import Testing

@Suite("Coroutines: starting countdowns from them, and hooks that try to yield")
struct CoroutineTests {
    @Test("a coroutine can start a countdown; its first tick runs in that coroutine")
    func startInCoroutine() throws {
        let bed = LuaTestbed()
        bed.mustRun("""
            local co = coroutine.create(function()
              h = countdown.start{id = "co", seconds = 2,
                on_tick = function(t) print("tick", t.remaining, coroutine.isyieldable()) end,
                on_done = function(_, r) print("done", r) end}
              coroutine.yield("started")
              print("resumed", h:state())
            end)
            print(coroutine.resume(co))
            print(coroutine.resume(co))
            """)
        #expect(bed.takeLines() == ["tick 2.0 false", "true started", "resumed running", "true"])
        try bed.runAll()
        #expect(bed.takeLines() == ["tick 1.0 false", "done finished"])
        #expect(bed.errors.isEmpty)
        #expect(bed.top == 0)
    }

    @Test("a countdown outlives the coroutine that started it, even one never resumed")
    func outlivesCoroutine() throws {
        let bed = LuaTestbed()
        bed.mustRun("""
            local co = coroutine.wrap(function()
              countdown.start{seconds = 3, on_tick = function(t) print(t.remaining) end}
              coroutine.yield()
            end)
            co()
            co = nil
            collectgarbage(); collectgarbage()
            """)
        try bed.runAll()
        #expect(bed.lines == ["3.0", "2.0", "1.0"])
    }

    @Test("h:cancel() in a coroutine runs on_done there")
    func cancelInCoroutine() {
        let bed = LuaTestbed()
        bed.mustRun("""
            h = countdown.start{seconds = 3, on_done = function(_, r) print("done", r) end}
            print(coroutine.wrap(function() return h:cancel() end)())
            """)
        #expect(bed.lines == ["done cancelled", "true"])
    }

    @Test("on_tick that yields in the first tick (inside a coroutine's start) is a clean hook error")
    func yieldInFirstTick() throws {
        let bed = LuaTestbed()
        bed.mustRun("""
            local co = coroutine.create(function()
              h = countdown.start{id = "y", seconds = 3,
                on_tick = function() coroutine.yield("from hook") end,
                on_done = function() print("done") end}
              print("start returned", h:state())
              return "finished normally"
            end)
            print(coroutine.resume(co))
            print(coroutine.status(co))
            """)
        #expect(bed.lines == ["start returned cancelled", "true finished normally", "dead"])
        try #require(bed.errors.count == 1)
        #expect(bed.errors[0].hasPrefix(#"cdscript: error in on_tick of countdown "y": "#), "\(bed.errors[0])")
        #expect(bed.errors[0].contains("attempt to yield across a C-call boundary"), "\(bed.errors[0])")
        #expect(bed.top == 0)
    }

    @Test("on_tick that yields on a later tick (on the main thread) is a clean hook error")
    func yieldInLaterTick() throws {
        let bed = LuaTestbed()
        bed.mustRun("""
            coroutine.wrap(function()
              h = countdown.start{id = "y", seconds = 3, on_tick = function(t)
                print("tick", t.remaining)
                if t.remaining < 3 then coroutine.yield() end
              end}
            end)()
            other = countdown.start{seconds = 5}
            """)
        try bed.runAll()
        #expect(bed.lines == ["tick 3.0", "tick 2.0"])
        try #require(bed.errors.count == 1)
        #expect(bed.errors[0].contains("attempt to yield from outside a coroutine"), "\(bed.errors[0])")
        #expect(bed.eval("h:state()") == "cancelled")
        #expect(bed.eval("other:state()") == "finished")
        #expect(bed.top == 0)
    }

    @Test("on_done that yields is a clean hook error")
    func yieldInDone() {
        let bed = LuaTestbed()
        bed.mustRun("""
            local co = coroutine.wrap(function()
              local h = countdown.start{id = "d", seconds = 3, on_done = function() coroutine.yield("x") end}
              print("cancel", h:cancel())
              return "done"
            end)
            print(co())
            """)
        #expect(bed.lines == ["cancel true", "done"])
        #expect(bed.errors.count == 1)
        #expect(bed.errors.first?.contains("attempt to yield across a C-call boundary") == true)
    }

    @Test("a hook may run its own coroutines, which yield normally")
    func coroutineInsideHook() throws {
        let bed = LuaTestbed()
        bed.mustRun("""
            countdown.start{seconds = 2, on_tick = function(t)
              local gen = coroutine.wrap(function() for i = 1, 3 do coroutine.yield(i) end end)
              print(gen() + gen() + gen(), t.remaining)
            end}
            """)
        try bed.runAll()
        #expect(bed.lines == ["6 2.0", "6 1.0"])
        #expect(bed.errors.isEmpty)
    }

    @Test("a hook error in a coroutine-started countdown leaves the coroutine running on")
    func hookErrorInCoroutine() {
        let bed = LuaTestbed()
        bed.mustRun("""
            print(coroutine.wrap(function()
              countdown.start{seconds = 3, on_tick = function() error("in coroutine") end}
              return "went on"
            end)())
            """)
        #expect(bed.lines == ["went on"])
        #expect(bed.errors.count == 1)
        #expect(bed.errors.first?.contains("in coroutine") == true)
        #expect(bed.top == 0)
    }

    @Test("a bad start inside a coroutine raises there and kills only that coroutine")
    func badStartInCoroutine() {
        let bed = LuaTestbed()
        bed.mustRun("""
            local co = coroutine.create(function() countdown.start{seconds = -1} end)
            local ok, err = coroutine.resume(co)
            print(ok, coroutine.status(co))
            message = err
            """)
        #expect(bed.lines == ["false dead"])
        #expect(bed.global("message")?.contains("'seconds'") == true)
        #expect(bed.top == 0)
    }
}
