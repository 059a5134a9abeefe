import CountdownCore
import Foundation
import LuaHost
import Testing

@Suite("countdown.on: hooks for every countdown")
struct GlobalHookTests {
    @Test("start, tick, done and cancel fire for every countdown, with the tick and the handle")
    func eventsInOrder() {
        let bed = HostBed()
        bed.mustRun("""
            for _, event in ipairs({ "start", "tick", "done", "cancel" }) do
              countdown.on(event, function(t, h) print(event, t.id or "anonymous", math.floor(t.remaining), h:state()) end)
            end
            countdown.start{ id = "a", seconds = 2 }
            local b = countdown.start{ seconds = 5 }
            b:cancel()
            """)
        bed.advance(to: 3)
        #expect(bed.lines == [
            "start a 2 running", "tick a 2 running",
            "start anonymous 5 running", "tick anonymous 5 running",
            "cancel anonymous 5 cancelled",
            "tick a 1 running", "done a 0 finished",
        ])
    }

    @Test("the returned function removes the hook, once")
    func remover() {
        let bed = HostBed()
        bed.mustRun("""
            remove = countdown.on("done", function(t) print("done", t.id) end)
            countdown.start{ id = "first", seconds = 1 }
            """)
        bed.advance(to: 1)
        bed.mustRun("""
            print(remove(), remove())
            countdown.start{ id = "second", seconds = 1 }
            """)
        bed.advance(to: 3)
        #expect(bed.lines == ["done first", "true false"])
    }

    @Test("a hook removing itself or adding another while hooks run is safe")
    func changesDuringDispatch() {
        let bed = HostBed()
        bed.mustRun("""
            local remove
            remove = countdown.on("tick", function(t) print("once", t.seconds) remove() countdown.on("tick", function() end) end)
            countdown.on("tick", function(t) print("always", t.seconds) end)
            countdown.start{ seconds = 2 }
            """)
        bed.advance(to: 3)
        #expect(bed.lines == ["once 2", "always 2", "always 1"])
    }

    @Test("an error in a global hook is reported; the countdown and the other hooks go on")
    func errorInGlobalHook() {
        let bed = HostBed()
        bed.mustRun("""
            countdown.on("tick", function() error("plugin bug") end)
            countdown.on("tick", function(t) print("ok", t.seconds) end)
            countdown.start{ id = "x", seconds = 2, on_done = function() print("finished") end }
            """)
        bed.advance(to: 3)
        #expect(bed.lines == ["ok 2", "ok 1", "finished"])
        #expect(bed.errors.count == 2)
        #expect(bed.errors.first?.contains("error in countdown.on(\"tick\") hook of countdown \"x\": test:1: plugin bug") == true, "\(bed.errors)")
    }

    @Test("bad arguments to countdown.on say what was expected")
    func badArguments() {
        let bed = HostBed()
        #expect(bed.run("countdown.on('finish', print)")?.message.contains("test:1: countdown.on: event must be \"start\", \"tick\", \"done\" or \"cancel\", got \"finish\"") == true)
        #expect(bed.run("countdown.on('done', 3)")?.message.contains("countdown.on: expected a function as argument 2, got number") == true)
    }
}

@Suite("countdown.formatter: named formatters usable wherever a pattern is")
struct FormatterTests {
    @Test("a registered name formats seconds, ticks and tables; other text is still a pattern")
    func namedFormatter() {
        let bed = HostBed()
        bed.mustRun("""
            countdown.formatter("secs", function(t) return ("%.1f s"):format(t.remaining) end)
            print(countdown.format(90, "secs"), countdown.format({ remaining = 2.5 }, "secs"), countdown.format(90, "{mm}:{ss}"))
            countdown.start{ seconds = 3, on_tick = function(t) print(countdown.format(t, "secs")) end }
            countdown.formatter("secs", nil)
            print(pcall(countdown.format, 1, "secs"))
            """)
        #expect(bed.lines[0] == "90.0 s 2.5 s 01:30")
        #expect(bed.lines[1] == "3.0 s")
        #expect(bed.lines[2] == "true secs")
    }

    @Test("a failing formatter or one that returns no string is an error of countdown.format")
    func failingFormatter() {
        let bed = HostBed()
        bed.mustRun("""
            countdown.formatter("boom", function() error("no format") end)
            countdown.formatter("num", function() return 5 end)
            print(pcall(function() return countdown.format(1, "boom") end))
            print(pcall(function() return countdown.format(1, "num") end))
            """)
        #expect(bed.lines[0] == "false test:3: countdown.format: formatter \"boom\" failed: test:1: no format")
        #expect(bed.lines[1] == "false test:4: countdown.format: formatter \"num\" must return a string, got number")
        #expect(bed.top == 0)
    }

    @Test("the formats plugin: compact, humanized and clock")
    func formatsPlugin() {
        let bed = HostBed()
        bed.mustRun("""
            use("formats")
            for _, s in ipairs({ 93784.5, 3723.4, 59.95, 0 }) do
              print(countdown.format(s, "compact"), countdown.format(s, "humanized"), countdown.format(s, "clock"))
            end
            print(countdown.format(3 * 86400 + 5, "humanized"), countdown.format(1, "humanized"), countdown.format(7260, "humanized"))
            """)
        #expect(bed.lines == [
            "1d 02:03:04.5 in 1 day 1563:04",
            "01:02:03.4 in 1 hour 62:03",
            "00:00:59.9 in 59 seconds 00:59",
            "00:00:00.0 now 00:00",
            "in 3 days in 1 second in 2 hours",
        ])
    }
}

@Suite("on_error: what a hook error does to its countdown")
struct ErrorPolicyTests {
    @Test("stop (the default) reports and stops; continue reports and runs on; a function gets the message instead")
    func policies() {
        let bed = HostBed()
        bed.mustRun("""
            local function failing(name) return function(t) print(name, t.seconds) error(name .. " failed") end end
            countdown.start{ id = "default", seconds = 3, on_tick = failing("default") }
            countdown.start{ id = "stop", seconds = 3, on_error = "stop", on_tick = failing("stop") }
            countdown.start{ id = "continue", seconds = 3, on_error = "continue", on_tick = failing("continue") }
            countdown.start{ id = "handled", seconds = 3, on_tick = failing("handled"),
              on_error = function(err) print("handler", err:match("^[^\\n]*")) end }
            """)
        bed.advance(to: 4)
        let lines = bed.lines
        #expect(lines.filter { $0.hasPrefix("default") } == ["default 3"])
        #expect(lines.filter { $0.hasPrefix("stop") } == ["stop 3"])
        #expect(lines.filter { $0.hasPrefix("continue") } == ["continue 3", "continue 2", "continue 1"])
        #expect(lines.filter { $0.hasPrefix("handled") } == ["handled 3", "handled 2", "handled 1"])
        #expect(lines.filter { $0.hasPrefix("handler") }.count == 3)
        #expect(lines.contains("handler test:1: handled failed"))
        #expect(bed.errors.count == 2 + 3)
        #expect(!bed.errors.contains { $0.contains("handled") })
    }

    @Test("an on_error function that raises is reported with the original error, and the countdown stops")
    func failingHandler() {
        let bed = HostBed()
        bed.mustRun("""
            countdown.start{ id = "h", seconds = 3, on_tick = function(t) print(t.seconds) error("first") end,
              on_error = function(err) error("second") end }
            """)
        bed.advance(to: 4)
        #expect(bed.lines == ["3"])
        #expect(bed.errors.count == 2)
        #expect(bed.errors[0].contains("on_tick of countdown \"h\": test:1: first"))
        #expect(bed.errors[1].contains("on_error of countdown \"h\": test:2: second"))
    }

    @Test("on_error applies to on_done too, and bad values are refused")
    func onDoneAndBadValues() {
        let bed = HostBed()
        bed.mustRun("""
            countdown.start{ id = "d", seconds = 1, on_done = function() error("late") end,
              on_error = function(err) print("caught", err:match("late") ~= nil) end }
            """)
        bed.advance(to: 2)
        #expect(bed.lines == ["caught true"])
        #expect(bed.errors.isEmpty)
        #expect(bed.run("countdown.start{ seconds = 1, on_error = 'ignore' }")?.message.contains("'on_error' must be \"stop\", \"continue\" or a function, got \"ignore\"") == true)
        #expect(bed.run("countdown.start{ seconds = 1, on_error = 3 }")?.message.contains("got number") == true)
    }
}
