import Testing

/// One bad call of countdown.start and what its message must say.
struct BadStart: Sendable, CustomTestStringConvertible {
    let argument: String
    let mentions: [String]
    var testDescription: String { "countdown.start(\(argument))" }
}

@Suite("countdown.start with bad options raises a Lua error naming the culprit")
struct BadStartTests {
    static let cases: [BadStart] = [
        BadStart(argument: "{seconds = -1}", mentions: ["'seconds'", "> 0", "got -1"]),
        BadStart(argument: "{seconds = 0}", mentions: ["'seconds'", "got 0"]),
        BadStart(argument: "{seconds = 0/0}", mentions: ["'seconds'"]),
        BadStart(argument: "{seconds = math.huge}", mentions: ["'seconds'"]),
        BadStart(argument: "{seconds = 'soon'}", mentions: ["'seconds' = \"soon\"", "not a duration", "1h30m"]),
        BadStart(argument: "{seconds = '0m'}", mentions: ["'seconds' must be a duration > 0", "0m"]),
        BadStart(argument: "{seconds = '5m30'}", mentions: ["'seconds' = \"5m30\"", "not a duration"]),
        BadStart(argument: "{seconds = true}", mentions: ["'seconds' must be a number or a duration", "got boolean"]),
        BadStart(argument: "{seconds = 5, every = 0.01}", mentions: ["'every'", "at least 0.1", "got 0.01"]),
        BadStart(argument: "{seconds = 5, every = 0}", mentions: ["'every'"]),
        BadStart(argument: "{seconds = 5, every = -1}", mentions: ["'every'"]),
        BadStart(argument: "{seconds = 5, every = 'often'}", mentions: ["'every' must be a duration from 0.1 s", "got \"often\""]),
        BadStart(argument: "{seconds = 5, every = true}", mentions: ["'every' must be a number", "got boolean"]),
        BadStart(argument: "{at = 'tomorrow-ish'}", mentions: ["'at'", "tomorrow-ish"]),
        BadStart(argument: "{at = '25:00'}", mentions: ["'at'", "hour 25"]),
        BadStart(argument: "{at = '2027-02-30T00:00Z'}", mentions: ["'at'", "day 30"]),
        BadStart(argument: "{at = 1700000000}", mentions: ["'at' must be a string", "got number"]),
        BadStart(argument: "{seconds = 5, on_tick = 5}", mentions: ["'on_tick' must be a function", "got number"]),
        BadStart(argument: "{seconds = 5, on_done = 'print'}", mentions: ["'on_done' must be a function", "got string"]),
        BadStart(argument: "{seconds = 5, on_tick = {}}", mentions: ["'on_tick' must be a function", "got table"]),
        BadStart(argument: "{seconds = 5, at = '20:00'}", mentions: ["either 'seconds' or 'at'", "not both"]),
        BadStart(argument: "{}", mentions: ["'seconds'", "'at'"]),
        BadStart(argument: "{id = 'x'}", mentions: ["'seconds'", "'at'"]),
        BadStart(argument: "{secnds = 5}", mentions: ["unknown option 'secnds'", "did you mean 'seconds'"]),
        BadStart(argument: "{seconds = 5, on_tik = print}", mentions: ["unknown option 'on_tik'", "did you mean 'on_tick'"]),
        BadStart(argument: "{seconds = 5, colour = 'red'}", mentions: ["unknown option 'colour'", "known: actions, at, end_lease, every, id, on_done, on_end_action, on_error, on_tick, overtime, persist, seconds, title"]),
        BadStart(argument: "{5}", mentions: ["option names must be strings", "got a number key"]),
        BadStart(argument: "{seconds = 5, [true] = 1}", mentions: ["option names must be strings", "got a boolean key"]),
        BadStart(argument: "5", mentions: ["expected a table of options", "got number"]),
        BadStart(argument: "'seconds = 5'", mentions: ["expected a table of options", "got string"]),
        BadStart(argument: "nil", mentions: ["expected a table of options", "got nil"]),
        BadStart(argument: "", mentions: ["expected a table of options", "got no value"]),
        BadStart(argument: "{id = 5, seconds = 1}", mentions: ["'id' must be a string", "got number"]),
        BadStart(argument: "{id = {}, seconds = 1}", mentions: ["'id' must be a string", "got table"]),
        BadStart(argument: "{id = '', seconds = 1}", mentions: ["'id' must not be empty"]),
    ]

    @Test("inside pcall: false and a message with the calling line", arguments: cases)
    func viaPcall(_ bad: BadStart) {
        let bed = LuaTestbed()
        bed.mustRun("""
            local before = #countdown.list()
            ok, err = pcall(function()
              return countdown.start(\(bad.argument))
            end)
            created = #countdown.list() - before
            """)
        #expect(bed.global("ok") == "false")
        let message = bed.global("err") ?? ""
        #expect(message.hasPrefix("test:3: countdown.start: "), "\(message)")
        for needle in bad.mentions {
            #expect(message.contains(needle), "\(message) should mention \(needle)")
        }
        #expect(bed.global("created") == "0")
        #expect(bed.scheduler.activeCount == 0)
        #expect(bed.top == 0)
    }

    @Test("at top level: a runtime ScriptFailure with the message and a traceback", arguments: cases)
    func viaScriptFailure(_ bad: BadStart) throws {
        let bed = LuaTestbed()
        let failure = try #require(bed.run("local x = 1\ncountdown.start(\(bad.argument))\nprint('not reached')"))
        #expect(failure.kind == .runtime)
        #expect(failure.message.hasPrefix("test:2: countdown.start: "), "\(failure.message)")
        for needle in bad.mentions {
            #expect(failure.message.contains(needle), "\(failure.message) should mention \(needle)")
        }
        #expect(failure.message.contains("stack traceback:"))
        #expect(bed.lines.isEmpty)
        #expect(bed.scheduler.activeCount == 0)
        #expect(bed.top == 0)
    }

    @Test("a bad option leaves the countdown it would have replaced running")
    func badReplacementKeepsOld() {
        let bed = LuaTestbed()
        bed.mustRun("""
            old = countdown.start{id = "x", seconds = 5}
            ok = pcall(countdown.start, {id = "x", seconds = 5, every = 0})
            """)
        #expect(bed.global("ok") == "false")
        #expect(bed.eval("old:state()") == "running")
        #expect(bed.eval("countdown.get('x') == old") == "true")
    }

    @Test("options are read raw: an __index on the options table is ignored")
    func optionsReadRaw() {
        let bed = LuaTestbed()
        bed.mustRun("""
            ok, err = pcall(countdown.start, setmetatable({}, {__index = {seconds = 5}}))
            """)
        #expect(bed.global("ok") == "false")
        #expect(bed.global("err")?.contains("give 'seconds'") == true)
    }
}
