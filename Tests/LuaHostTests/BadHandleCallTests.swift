import Testing

@Suite("Handle methods called with a dot, or with bad arguments")
struct BadHandleCallTests {
    @Test("h.method(...) instead of h:method(...) explains the colon",
          arguments: ["append(5)", "pause()", "resume()", "cancel()", "remaining()", "state()"])
    func dotInsteadOfColon(_ call: String) {
        let bed = LuaTestbed()
        let method = String(call.prefix { $0 != "(" })
        bed.mustRun("""
            h = countdown.start{seconds = 10}
            ok, err = pcall(function()
              return h.\(call)
            end)
            """)
        #expect(bed.global("ok") == "false")
        let message = bed.global("err") ?? ""
        #expect(message.hasPrefix("test:3: \(method): "), "\(message)")
        #expect(message.contains("colon"), "\(message)")
        #expect(message.contains("h:\(method)(...)"), "\(message)")
        #expect(bed.eval("h:state()") == "running")
        #expect(bed.eval("h:remaining()") == "10.0")
    }

    @Test("h.append(5) at top level is a runtime failure mentioning the colon")
    func dotAppendTopLevel() throws {
        let bed = LuaTestbed()
        let failure = try #require(bed.run("local h = countdown.start{seconds = 10}\nh.append(5)"))
        #expect(failure.kind == .runtime)
        #expect(failure.message.hasPrefix("test:2: append: call it as a method with a colon"))
    }

    @Test("a method called on another handle-like value names what it got")
    func wrongSelf() {
        let bed = LuaTestbed()
        bed.mustRun("""
            h = countdown.start{seconds = 10}
            ok, err = pcall(h.pause, io.stdout)
            """)
        #expect(bed.global("ok") == "false")
        #expect(bed.global("err")?.contains("expected a countdown handle as self") == true)
    }

    /// Handles are told apart by their metatable's address (no lookup by name):
    /// every other kind of value, userdata with a metatable of its own included, is refused.
    @Test("a method called on a value that is not a handle is refused", arguments: [
        "t", "{}", "coroutine.create(print)", "io.stdout", "42", "'h'",
    ])
    func notAHandle(_ value: String) {
        let bed = LuaTestbed()
        bed.mustRun("""
            h = countdown.start{seconds = 10, on_tick = function(tick) t = tick end}
            ok, err = pcall(h.cancel, \(value))
            """)
        #expect(bed.global("ok") == "false", "\(value)")
        #expect(bed.global("err")?.contains("cancel: ") == true, "\(bed.global("err") ?? "")")
        #expect(bed.eval("h:state()") == "running")
    }

    @Test("h:append needs a number of seconds or a duration, other than 0", arguments: [
        ("h:append(0)", "'seconds' must be a number of seconds other than 0 (a negative one takes time off), got 0"),
        ("h:append(0/0)", "'seconds' must be a number of seconds, got nan"),
        ("h:append(-1e30)", "'seconds' must be at least -2305843009 seconds (about 73 years), got -1e+30"),
        ("h:append('soon')", "'seconds' must be a duration other than 0"),
        ("h:append('1e308')", "got \"1e308\""),
        ("h:append({})", "'seconds' must be a number, got table"),
        ("h:append()", "'seconds' must be a number, got no value"),
    ])
    func appendBadSeconds(_ call: String, _ mentions: String) {
        let bed = LuaTestbed()
        bed.mustRun("""
            h = countdown.start{seconds = 10}
            ok, err = pcall(function() return \(call) end)
            """)
        #expect(bed.global("ok") == "false")
        let message = bed.global("err") ?? ""
        #expect(message.hasPrefix("test:2: append: "), "\(message)")
        #expect(message.contains(mentions), "\(message)")
        #expect(bed.eval("h:remaining()") == "10.0")
    }
}
