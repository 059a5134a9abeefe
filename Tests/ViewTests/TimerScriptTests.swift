import CountdownCore
import Foundation
import LuaHost
import TerminalView
import Testing

/// The built-in timer script (Sources/cdscript/BuiltinScripts/timer.lua) and its
/// keys (the timer_keys plugin) on a virtual clock and a virtual terminal.
@Suite("The timer script: keys, window title, warning style, the end")
struct TimerScriptTests {
    static let scripts = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/cdscript/BuiltinScripts")

    /// Runs the timer with `arguments`; returns the error message, if any.
    static func timer(_ h: ViewHarness, _ arguments: String...) -> String? {
        h.host.runScript(atPath: scripts.appendingPathComponent("timer.lua").path, arguments: arguments)?.message
    }

    static func clock(_ h: ViewHarness) -> String? {
        h.view.element("clock")?.text
    }

    @Test("+ and - add and take off 10 s; - with less than 10 s left says so")
    func plusMinus() {
        let h = ViewHarness(columns: 60, rows: 12)
        #expect(Self.timer(h, "60") == nil)
        #expect(h.press("+") == .handled)
        #expect(Self.clock(h) == "1:10.0")
        _ = h.press("-")
        _ = h.press("-")
        #expect(Self.clock(h) == "50.0")
        h.advance(45)
        _ = h.press("-")
        #expect(Self.clock(h) == "5.0")
        #expect(h.view.element("note")?.text == "less than 10 s left: nothing taken off")
    }

    @Test("r starts again from the original length, with the bar empty")
    func restart() {
        let h = ViewHarness(columns: 60, rows: 12)
        #expect(Self.timer(h, "60") == nil)
        h.advance(20)
        #expect(Self.clock(h) == "40.0")
        _ = h.press("r")
        #expect(Self.clock(h) == "1:00.0")
        #expect(h.view.element("progress")?.value == 0)
        #expect(!h.view.isClosed, "the cancel of the old countdown is no end of the timer")
        h.advance(81)
        #expect(h.view.element("status")?.text == "Time's up")
    }

    @Test("e shows the end as a clock time and hides it again")
    func endTime() throws {
        let h = ViewHarness(columns: 60, rows: 12)
        #expect(Self.timer(h, "90") == nil)
        _ = h.press("e")
        let shown = try #require(h.view.element("ends")?.text)
        // With seconds; with the date too when the end is on another day.
        #expect(shown.range(of: #"^ends (\w{3} \d{4}-\d\d-\d\d )?\d\d:\d\d:\d\d$"#, options: .regularExpression) != nil, "\(shown)")
        _ = h.press("e")
        #expect(h.view.element("ends")?.text == "")
    }

    @Test("Space pauses and resumes the timer; on a fixed deadline it says it cannot")
    func space() {
        let h = ViewHarness(columns: 60, rows: 12)
        #expect(Self.timer(h, "60") == nil)
        _ = h.press("space")
        h.advance(10)
        #expect(Self.clock(h) == "1:00.0")
        #expect(h.view.element("note")?.text == "paused — Space to resume")
        _ = h.press("space")
        h.advance(10)
        #expect(Self.clock(h) == "50.0")

        let deadline = ViewHarness(columns: 60, rows: 12)
        #expect(Self.timer(deadline, "2027-01-01T00:01:00+00:00") == nil)
        _ = deadline.press("space")
        #expect(deadline.view.element("note")?.text == "cannot pause a fixed deadline")
        deadline.advance(10)
        #expect(Self.clock(deadline) == "50.0", "still running")
        _ = deadline.press("r")
        #expect(deadline.view.element("note")?.text == "cannot restart a fixed deadline")
    }

    @Test("q still quits the timer")
    func quit() {
        let h = ViewHarness(columns: 60, rows: 12)
        #expect(Self.timer(h, "60") == nil)
        #expect(h.press("q") == .quit)
        #expect(h.view.isClosed)
    }

    @Test("the window title shows the time left as the digits do, then the title; --no-window-title leaves it")
    func windowTitle() {
        let h = ViewHarness(columns: 60, rows: 12)
        #expect(Self.timer(h, "90", "--title", "Tea") == nil)
        h.advance(0.6)
        #expect(h.terminal.title == "1:29.4 · Tea")
        let untitled = ViewHarness(columns: 60, rows: 12)
        #expect(Self.timer(untitled, "90") == nil)
        untitled.advance(0.6)
        #expect(untitled.terminal.title == "1:29.4")
        let alone = ViewHarness(columns: 60, rows: 12)
        #expect(Self.timer(alone, "90", "--no-window-title") == nil)
        alone.advance(0.6)
        #expect(alone.terminal.title == "")
    }

    @Test("--critical N: the last N seconds in red and bold")
    func critical() {
        let h = ViewHarness(columns: 60, rows: 12)
        #expect(Self.timer(h, "10", "--critical", "3") == nil)
        h.advance(6.5)
        #expect(h.view.element("clock")?.style == CellStyle.plain)
        h.advance(1.0)
        #expect(Self.clock(h) == "2.5")
        #expect(h.view.element("clock")?.style == CellStyle(bold: true, colour: .red))
    }

    @Test("without end options the run ends at the deadline, after the bell")
    func defaultEnd() {
        let h = ViewHarness(columns: 60, rows: 12)
        #expect(Self.timer(h, "2") == nil)
        h.advance(1.95)
        #expect(!h.view.isClosed)
        h.advance(0.1)
        #expect(h.view.element("status")?.text == "Time's up")
        #expect(h.view.isClosed)
        #expect(h.terminal.bells == 1)
    }

    @Test("--text and --blink hold the end screen for five seconds")
    func textHolds() {
        let h = ViewHarness(columns: 60, rows: 14)
        #expect(Self.timer(h, "2", "--text", "Done") == nil)
        h.advance(6.9)
        #expect(!h.view.isClosed)
        #expect(h.view.element("text")?.kind == .big)
        h.advance(0.2)
        #expect(h.view.isClosed)
    }

    @Test("--text shows big letters at the end; --wait keeps the screen until a key")
    func textAndWait() {
        let h = ViewHarness(columns: 60, rows: 14)
        #expect(Self.timer(h, "2", "--text", "Done", "--wait") == nil)
        h.advance(30)
        #expect(!h.view.isClosed)
        #expect(h.view.element("text")?.kind == .big)
        // D, O, N, E in block letters: the top row of "DONE".
        #expect(h.screen.contains("██  ███ █  █ ███"), "\(h.screen)")
        #expect(h.press("x") == .handled)
        #expect(h.view.isClosed)
    }

    @Test("--quit-after N ends the run N seconds after the end, also with --wait")
    func quitAfter() {
        let h = ViewHarness(columns: 60, rows: 12)
        #expect(Self.timer(h, "2", "--wait", "--quit-after", "5") == nil)
        h.advance(6.5)
        #expect(!h.view.isClosed)
        h.advance(0.6)
        #expect(h.view.isClosed)
    }

    @Test("--blink flashes the digits at the end, then leaves them as they were")
    func blink() {
        let h = ViewHarness(columns: 60, rows: 12)
        #expect(Self.timer(h, "1", "--blink", "--wait") == nil)
        h.advance(1.05)
        #expect(h.view.element("clock")?.style.inverse == true)
        h.advance(0.5)
        #expect(h.view.element("clock")?.style.inverse == false)
        h.advance(10)
        #expect(h.view.element("clock")?.style.inverse == false)
    }

    @Test("--overtime counts up past the end, in the warning style")
    func overtime() {
        let h = ViewHarness(columns: 60, rows: 12)
        #expect(Self.timer(h, "5", "--overtime", "--title", "Talk") == nil)
        h.advance(17.05)
        #expect(Self.clock(h) == "+0:12.0")
        #expect(h.view.element("clock")?.style == CellStyle(bold: true, colour: .red))
        #expect(h.terminal.title == "+0:12.0 · Talk")
        #expect(h.view.element("status")?.text == "Time's up")
        #expect(!h.view.isClosed)
    }

    @Test("--overtime: + past the end counts down again without \"Time's up\"; the next end says it again, once")
    func overtimeCountsDownAgain() {
        let h = ViewHarness(columns: 60, rows: 12)
        #expect(Self.timer(h, "5", "--overtime") == nil)
        h.advance(7.05)
        #expect(h.view.element("status")?.text == "Time's up")
        #expect(h.press("+") == .handled)
        h.advance(0.15)
        #expect(Self.clock(h) == "7.8")
        #expect(h.view.element("status")?.text == "", "counting down again, the time is not up")
        h.advance(9)
        #expect(Self.clock(h) == "+0:01.2")
        #expect(h.view.element("status")?.text == "Time's up")
    }

    @Test("bad options are errors that name them; cdscript's own options belong before the script")
    func badOptions() {
        let h = ViewHarness()
        #expect(Self.timer(h, "5", "--critical", "soon")?.contains("--critical must be a duration of at least 0 s") == true)
        #expect(Self.timer(ViewHarness(), "5", "--speed", "10")?.contains("--speed is an option of cdscript itself") == true)
        #expect(Self.timer(ViewHarness(), "5", "--bogus")?.contains("unexpected argument '--bogus'") == true)
    }

    @Test("a plain view gets one line a second by default; --every still chooses")
    func plainEvery() {
        var lines: [String] = []
        let h = ViewHarness(plain: { lines.append($0) })
        #expect(Self.timer(h, "2") == nil)
        h.advance(2.05)
        #expect(lines.filter { $0.hasPrefix("clock: ") } == ["clock: 2", "clock: 1", "clock: 0"])
    }
}

@Suite("view.on_key, view.plain, view.configure")
struct ViewKeyAndModeTests {
    @Test("on_key runs for a key no button takes; Space's handler replaces its pause; nil removes it")
    func onKey() {
        let h = ViewHarness()
        #expect(h.run("""
            view.label{ id = "s", text = "" }
            pressed = {}
            view.on_key("+", function(k) pressed[#pressed + 1] = k end)
            view.on_key("space", function(k) pressed[#pressed + 1] = k end)
            c = countdown.start{ seconds = 10 }
            """) == nil)
        #expect(h.press("+") == .handled)
        #expect(h.press("space") == .handled)
        #expect(h.run("assert(pressed[1] == '+' and pressed[2] == 'space'); assert(c:state() == 'running')") == nil)
        #expect(h.run("view.on_key('+', nil)") == nil)
        #expect(h.press("+") == .unbound)
    }

    @Test("a handler of q replaces its quit; \"any\" takes every other key")
    func quitAndAny() {
        let h = ViewHarness()
        #expect(h.run("""
            view.label{ id = "s", text = "" }
            view.on_key("q", function() view.set("s", { text = "bye" }); view.close() end)
            view.on_key("any", function(k) view.set("s", { text = k }) end)
            """) == nil)
        _ = h.press("z")
        #expect(h.view.element("s")?.text == "z")
        #expect(h.press("q") == .handled)
        #expect(h.view.element("s")?.text == "bye")
        #expect(h.view.isClosed && h.view.quitKey == nil, "the script ended it, not the key")
    }

    @Test("view.plain() tells lines from the screen; configure is refused once the view is open")
    func plainAndConfigure() {
        #expect(ViewHarness().run("assert(view.plain() == false)") == nil)
        #expect(ViewHarness(plain: { _ in }).run("assert(view.plain() == true)") == nil)
        let h = ViewHarness()
        #expect(h.run("view.configure{ plain = true }") == nil, "a fixed surface is kept")
        #expect(h.run("view.configure{ plain = 1 }")?.contains("'plain' must be a boolean") == true)
        #expect(h.run("view.label{ id = 'a', text = '' }; view.configure{ color = false }")?.contains("the view is open already") == true)
    }

    @Test("examples/flash_sale.lua has the timer's keys: Space says a deadline cannot pause")
    func flashSale() {
        let h = ViewHarness(columns: 60, rows: 12)
        #expect(h.runExample("flash_sale.lua", "2027-01-01T00:01:00+00:00") == nil)
        _ = h.press("space")
        #expect(h.view.element("note")?.text == "cannot pause a fixed deadline")
    }
}
