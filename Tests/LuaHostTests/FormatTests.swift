import Testing

@Suite("countdown.format(seconds or t, pattern)")
struct FormatTests {
    struct Example: Sendable, CustomTestStringConvertible {
        let seconds: String
        let pattern: String
        let expected: String
        var testDescription: String { "format(\(seconds), \"\(pattern)\") == \"\(expected)\"" }
    }

    @Test("documented examples and every token", arguments: [
        Example(seconds: "90061.5", pattern: "{d}d {hh}:{mm}:{ss}.{t}", expected: "1d 01:01:01.5"),
        Example(seconds: "3725", pattern: "{H}:{mm}:{ss}", expected: "1:02:05"),
        Example(seconds: "3725", pattern: "{h}h {m}m {s}s", expected: "1h 2m 5s"),
        Example(seconds: "3725", pattern: "{M} min", expected: "62 min"),
        Example(seconds: "3725", pattern: "{S}", expected: "3725"),
        Example(seconds: "90061.5", pattern: "{H}", expected: "25"),
        Example(seconds: "1.96", pattern: "{s}.{t}", expected: "1.9"),
        Example(seconds: "0", pattern: "{hh}:{mm}:{ss}", expected: "00:00:00"),
        Example(seconds: "-5", pattern: "{ss}.{t}", expected: "00.0"),
        Example(seconds: "59.99", pattern: "{{{ss}}}", expected: "{59}"),
        Example(seconds: "10", pattern: "no tokens", expected: "no tokens"),
        Example(seconds: "10", pattern: "", expected: ""),
    ])
    func examples(_ example: Example) {
        let bed = LuaTestbed()
        #expect(bed.eval("countdown.format(\(example.seconds), \"\(example.pattern)\")") == example.expected)
    }

    @Test("a tick table formats by its remaining field")
    func tickTable() {
        let bed = LuaTestbed()
        bed.mustRun("""
            countdown.start{seconds = 3725.5, on_tick = function(t)
              print(countdown.format(t, "{H}:{mm}:{ss}.{t}"))
            end}
            """)
        #expect(bed.lines == ["1:02:05.5"])
    }

    @Test("any table with a numeric remaining field works")
    func plainTable() {
        let bed = LuaTestbed()
        #expect(bed.eval("countdown.format({remaining = 61}, '{m}:{ss}')") == "1:01")
    }

    @Test("an unknown token is an error that names the token")
    func unknownToken() {
        let bed = LuaTestbed()
        bed.mustRun("ok, err = pcall(countdown.format, 10, '{hh}:{x}')")
        #expect(bed.global("ok") == "false")
        let message = bed.global("err") ?? ""
        #expect(message.contains("countdown.format"))
        #expect(message.contains("{x}"))
    }

    @Test("an unknown token in a script is a runtime failure naming the token and the line")
    func unknownTokenTopLevel() throws {
        let bed = LuaTestbed()
        let failure = try #require(bed.run("local a = 1\nprint(countdown.format(10, '{days}'))"))
        #expect(failure.kind == .runtime)
        #expect(failure.message.hasPrefix("test:2: countdown.format"))
        #expect(failure.message.contains("{days}"))
    }

    struct Bad: Sendable, CustomTestStringConvertible {
        let call: String
        let mentions: String
        var testDescription: String { call }
    }

    @Test("bad arguments are errors that say what was expected", arguments: [
        Bad(call: "countdown.format('10', '{s}')", mentions: "argument 1, got string"),
        Bad(call: "countdown.format(nil, '{s}')", mentions: "argument 1, got nil"),
        Bad(call: "countdown.format({}, '{s}')", mentions: "no numeric 'remaining' field"),
        Bad(call: "countdown.format(10)", mentions: "pattern string as argument 2, got no value"),
        Bad(call: "countdown.format(10, 5)", mentions: "pattern string as argument 2, got number"),
        Bad(call: "countdown.format(0/0, '{s}')", mentions: "finite"),
        Bad(call: "countdown.format(math.huge, '{s}')", mentions: "finite"),
        Bad(call: "countdown.format(10, '{s')", mentions: "unclosed '{'"),
        Bad(call: "countdown.format(10, 's}')", mentions: "unmatched '}'"),
    ])
    func badArguments(_ bad: Bad) {
        let bed = LuaTestbed()
        bed.mustRun("ok, err = pcall(function() return \(bad.call) end)")
        #expect(bed.global("ok") == "false")
        let message = bed.global("err") ?? ""
        #expect(message.hasPrefix("test:1: countdown.format: "), "\(message)")
        #expect(message.contains(bad.mentions), "\(message)")
        #expect(bed.top == 0)
    }

    @Test("the same pattern formats the same way many times (the pattern cache)")
    func cache() {
        let bed = LuaTestbed()
        bed.mustRun("""
            for i = 1, 600 do
              local p = "{s}" .. ("."):rep(i % 300)
              if countdown.format(i % 60, p) ~= tostring(i % 60) .. ("."):rep(i % 300) then bad = i end
            end
            """)
        #expect(bed.global("bad") == nil)
    }
}
