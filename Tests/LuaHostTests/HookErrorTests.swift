import Testing

@Suite("An error in a hook is reported and stops only its own countdown")
struct HookErrorTests {
    static let badAndGood = """
        bad = countdown.start{id = "bad", seconds = 5,
          on_tick = function(t)
            print("bad tick", t.remaining)
            if t.remaining == 3 then error("boom") end
          end,
          on_done = function(_, r) print("bad done", r) end}
        good = countdown.start{id = "good", seconds = 5,
          on_tick = function(t) print("good tick", t.remaining) end,
          on_done = function(_, r) print("good done", r) end}
        """

    @Test("the report names the hook, the countdown id, the message and has a traceback")
    func reportContents() throws {
        let bed = LuaTestbed()
        bed.mustRun(Self.badAndGood)
        bed.advance(to: 2)
        try #require(bed.errors.count == 1)
        let report = bed.errors[0]
        #expect(report.hasPrefix(#"cdscript: error in on_tick of countdown "bad": test:4: boom"#), "\(report)")
        #expect(report.contains("stack traceback:"))
        #expect(bed.host.hookErrorCount == 1)
    }

    @Test("the failing countdown stops: state cancelled, no more ticks, on_done not called")
    func failingCountdownStops() throws {
        let bed = LuaTestbed()
        bed.mustRun(Self.badAndGood)
        try bed.runAll()
        let badLines = bed.lines.filter { $0.hasPrefix("bad") }
        #expect(badLines == ["bad tick 5.0", "bad tick 4.0", "bad tick 3.0"])
        #expect(bed.eval("bad:state()") == "cancelled")
        #expect(bed.eval("countdown.get('bad')") == "nil")
    }

    @Test("the other countdowns keep running to their end")
    func othersKeepRunning() throws {
        let bed = LuaTestbed()
        bed.mustRun(Self.badAndGood)
        try bed.runAll()
        let goodLines = bed.lines.filter { $0.hasPrefix("good") }
        #expect(goodLines == ["good tick 5.0", "good tick 4.0", "good tick 3.0", "good tick 2.0", "good tick 1.0",
                              "good done finished"])
        #expect(bed.errors.count == 1)
    }

    @Test("an error in the first tick stops the countdown inside start, and the script goes on")
    func firstTickError() {
        let bed = LuaTestbed()
        bed.mustRun("""
            h = countdown.start{id = "early", seconds = 5,
              on_tick = function() error("at once") end,
              on_done = function() print("done") end}
            print("script goes on", h:state())
            """)
        #expect(bed.lines == ["script goes on cancelled"])
        #expect(bed.errors.count == 1)
        #expect(bed.errors.first?.contains(#"on_tick of countdown "early": test:2: at once"#) == true)
    }

    @Test("hookErrorCount counts every hook error")
    func errorCount() throws {
        let bed = LuaTestbed()
        bed.mustRun("""
            for i = 2, 4 do
              countdown.start{seconds = i, on_tick = function(t) if t.remaining < i then error("e" .. i) end end}
            end
            countdown.start{seconds = 2, on_done = function() error("done failed") end}
            """)
        #expect(bed.host.hookErrorCount == 0)
        try bed.runAll()
        #expect(bed.host.hookErrorCount == 4)
        #expect(bed.errors.count == 4)
    }

    @Test("an error in on_done is reported with the countdown id")
    func doneError() throws {
        let bed = LuaTestbed()
        bed.mustRun(#"countdown.start{id = "d", seconds = 1, on_done = function(_, r) error("done " .. r) end}"#)
        try bed.runAll()
        try #require(bed.errors.count == 1)
        #expect(bed.errors[0].hasPrefix(#"cdscript: error in on_done of countdown "d": test:1: done finished"#), "\(bed.errors[0])")
        #expect(bed.errors[0].contains("stack traceback:"))
        #expect(bed.host.hookErrorCount == 1)
    }

    @Test("an error in on_done after h:cancel() is reported, and cancel still returns true")
    func doneErrorOnCancel() {
        let bed = LuaTestbed()
        bed.mustRun("""
            h = countdown.start{id = "c", seconds = 5, on_done = function(_, r) error("done " .. r) end}
            print(h:cancel(), h:state())
            """)
        #expect(bed.lines == ["true cancelled"])
        #expect(bed.errors.count == 1)
        #expect(bed.errors.first?.contains("done cancelled") == true)
    }

    @Test("an anonymous countdown is reported as such")
    func anonymous() {
        let bed = LuaTestbed()
        bed.mustRun("countdown.start{seconds = 5, on_tick = function() error('x') end}")
        #expect(bed.errors.first?.hasPrefix("cdscript: error in on_tick of an anonymous countdown: test:1: x") == true)
    }

    @Test("error({}) is reported as a table error object")
    func tableErrorObject() {
        let bed = LuaTestbed()
        bed.mustRun("h = countdown.start{id = 't', seconds = 5, on_tick = function() error({}) end}")
        #expect(bed.errors.count == 1)
        #expect(bed.errors.first?.contains(#"countdown "t": (error object is a table value)"#) == true, "\(bed.errors)")
        #expect(bed.errors.first?.contains("stack traceback:") == true)
        #expect(bed.eval("h:state()") == "cancelled")
    }

    @Test("an error object with __tostring is reported by its text")
    func tostringErrorObject() {
        let bed = LuaTestbed()
        bed.mustRun("""
            local E = setmetatable({}, {__tostring = function() return "custom failure" end})
            countdown.start{id = 't', seconds = 5, on_tick = function() error(E) end}
            """)
        #expect(bed.errors.count == 1)
        #expect(bed.errors.first?.contains(#"countdown "t": custom failure"#) == true, "\(bed.errors)")
    }

    @Test("other error objects: nil, numbers, booleans, a failing __tostring", arguments: [
        ("error(nil)", "(error object is a nil value)"),
        ("error(42)", "42"),
        ("error(true)", "(error object is a boolean value)"),
        ("error(setmetatable({}, {__tostring = function() return 7 end}))", "(error object is a table value)"),
        ("error(setmetatable({}, {__tostring = function() error('worse') end}))", "worse"),
    ])
    func otherErrorObjects(_ raise: String, _ mentions: String) throws {
        let bed = LuaTestbed()
        bed.mustRun("""
            h = countdown.start{id = 'o', seconds = 5, on_tick = function() \(raise) end}
            g = countdown.start{seconds = 5}
            """)
        try #require(bed.errors.count == 1)
        #expect(bed.errors[0].hasPrefix(#"cdscript: error in on_tick of countdown "o": "#), "\(bed.errors[0])")
        #expect(bed.errors[0].contains(mentions), "\(bed.errors[0])")
        #expect(bed.eval("h:state()") == "cancelled")
        #expect(bed.eval("g:state()") == "running")
        #expect(bed.top == 0)
    }

    @Test("an on_tick that cancels its own countdown and then fails is still reported with its id")
    func cancelThenFail() {
        let bed = LuaTestbed()
        bed.mustRun("""
            h = countdown.start{id = "self", seconds = 5,
              on_tick = function(t) if t.remaining == 4 then h:cancel(); error("after cancel") end end,
              on_done = function(_, r) print(r) end}
            """)
        bed.advance(to: 5)
        #expect(bed.lines == ["cancelled"])
        #expect(bed.errors.count == 1)
        #expect(bed.errors.first?.hasPrefix(#"cdscript: error in on_tick of countdown "self": test:2: after cancel"#) == true,
                "\(bed.errors)")
    }

    @Test("a hook that errors with a runaway recursion is reported; the host survives")
    func stackOverflowInHook() {
        let bed = LuaTestbed()
        bed.mustRun("""
            local function deep(n) return 1 + deep(n + 1) end
            countdown.start{id = 'deep', seconds = 5, on_tick = function() deep(1) end}
            countdown.start{id = 'ok', seconds = 1, on_done = function() print("ok done") end}
            """)
        bed.advance(to: 1)
        #expect(bed.errors.count == 1)
        #expect(bed.errors.first?.contains("stack overflow") == true)
        #expect(bed.lines == ["ok done"])
        #expect(bed.top == 0)
    }
}
