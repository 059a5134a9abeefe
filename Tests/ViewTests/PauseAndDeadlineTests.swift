import CountdownCore
import Testing
import TerminalView

/// Issue 13: a pause that shows, `at` deadlines that hold, changes shown at once.
@Suite("The pause note, `at` deadlines under pause, immediate ticks after changes")
struct PauseAndDeadlineTests {
    /// Wall time of the virtual clock at boot 0 is 2027-01-01T00:00:00Z.
    static let inAMinute = "2027-01-01T00:01:00+00:00"

    @Test("while Space holds countdowns paused the bottom row says so; Space again clears it")
    func pauseNote() {
        let h = ViewHarness(columns: 40, rows: 5)
        #expect(h.run("""
            view.label{ id = "status", text = "Resend in 10s" }
            countdown.start{ id = "a", seconds = 10 }
            """) == nil)
        #expect(!h.screen.contains("paused"))
        #expect(h.press("space") == .togglePause)
        let lines = h.screen.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.last == "        paused — Space to resume")
        #expect(lines.contains("             Resend in 10s"))
        #expect(h.terminal.screen[4, 8].style == CellStyle(bold: true, inverse: true))
        #expect(h.press("space") == .togglePause)
        #expect(!h.screen.contains("paused"))
    }

    @Test("view.paused_text restyles or hides the note; bad fields are errors")
    func restyledNote() {
        let h = ViewHarness(columns: 20, rows: 3)
        #expect(h.run("""
            view.label{ id = "status", text = "x" }
            countdown.start{ id = "a", seconds = 10 }
            view.paused_text{ text = "已暂停 空格继续", style = "bold red" }
            """) == nil)
        _ = h.press("space")
        #expect(h.screen.hasSuffix("\n  已暂停 空格继续"))
        #expect(h.terminal.screen[2, 2].style == CellStyle(bold: true, colour: .red))
        #expect(h.run(#"view.paused_text{ hidden = true }"#) == nil)
        #expect(!h.screen.contains("已暂停"))
        #expect(h.run(#"view.paused_text{ hidden = "yes" }"#)?.contains("'hidden' must be a boolean, got string") == true)
        #expect(h.run(#"view.paused_text{ txt = "a" }"#)?.contains("unknown option 'txt'") == true)
    }

    @Test("plain mode prints a line when Space pauses and when it resumes")
    func plainNote() {
        var lines: [String] = []
        let h = ViewHarness(plain: { lines.append($0) })
        #expect(h.run("""
            view.label{ id = "status", text = "x" }
            countdown.start{ id = "a", seconds = 10 }
            """) == nil)
        _ = h.press("space")
        _ = h.press("space")
        #expect(lines == ["status: x", "paused — Space to resume", "resumed"])
    }

    @Test("Space with nothing running pauses nothing: view.press returns false and no note shows")
    func spaceWithNothingRunning() {
        let h = ViewHarness(columns: 40, rows: 3)
        #expect(h.run("""
            view.label{ id = "status", text = "done" }
            assert(view.press("space") == false, "press returned true")
            local h = countdown.start{ seconds = 5 }
            assert(view.press("space") == true)
            assert(h:state() == "paused")
            """) == nil)
        #expect(h.screen.contains("paused — Space to resume"))
    }

    @Test("Space leaves `at` countdowns running: a deadline on the wall clock never moves")
    func spaceLeavesAtRunning() {
        let h = ViewHarness()
        #expect(h.run("""
            view.label{ id = "status", text = "" }
            sale = countdown.start{ id = "sale", at = "\(Self.inAMinute)" }
            cooldown = countdown.start{ id = "cooldown", seconds = 30 }
            """) == nil)
        _ = h.press("space")
        h.advance(5)
        _ = h.press("space")
        #expect(h.run("""
            assert(sale:state() == "running")
            assert(math.abs(sale:remaining() - 55) < 1e-9, sale:remaining())
            assert(math.abs(cooldown:remaining() - 30) < 1e-9, cooldown:remaining())
            """) == nil)
    }

    @Test("h:pause() on an `at` countdown freezes what it shows; resume shows the true time left")
    func pauseAt() {
        let h = ViewHarness()
        #expect(h.run("""
            view.label{ id = "status", text = "" }
            shown = {}
            sale = countdown.start{ id = "sale", at = "\(Self.inAMinute)", on_tick = function(t) shown[#shown + 1] = t.remaining end }
            """) == nil)
        h.advance(10)
        #expect(h.run("assert(sale:pause()); assert(sale:remaining() == 50)") == nil)
        h.advance(20)
        #expect(h.run("assert(sale:remaining() == 50, 'frozen while paused')") == nil)
        #expect(h.run("assert(sale:resume()); assert(sale:remaining() == 30, sale:remaining()); assert(shown[#shown] == 30)") == nil)
        h.advance(30)
        #expect(h.run("assert(sale:state() == 'finished')") == nil)
        // Paused past its deadline, it ends on resume.
        #expect(h.run("""
            done = nil
            late = countdown.start{ at = "2027-01-01T00:01:10+00:00", on_done = function(_, why) done = why end }
            late:pause()
            """) == nil)
        h.advance(20)
        #expect(h.run("assert(done == nil); late:resume()") == nil)
        h.advance(0)
        #expect(h.run("assert(done == 'finished', tostring(done))") == nil)
    }

    @Test("h:append, h:pause and h:resume call on_tick at once with the new remaining time; the phase stays")
    func immediateTicks() {
        let h = ViewHarness()
        #expect(h.run("""
            view.label{ id = "clock", text = "" }
            ticks = {}
            c = countdown.start{ id = "c", seconds = 10, on_tick = function(t)
              ticks[#ticks + 1] = ("%.1f %s"):format(t.remaining, c and c:state() or "running")
              view.set("clock", { text = countdown.format(t, "{S}.{t}s") })
            end }
            """) == nil)
        h.advance(2.5)
        #expect(h.run("c:append(30)") == nil)
        #expect(h.view.element("clock")?.text == "37.5s")
        #expect(h.run("c:pause()") == nil)
        h.advance(1)
        #expect(h.run("c:resume()") == nil)
        h.advance(0.5)
        #expect(h.run("""
            local want = { "10.0 running", "9.0 running", "8.0 running", "37.5 running", "37.5 paused", "37.5 running", "37.0 running" }
            assert(table.concat(ticks, ",") == table.concat(want, ","), table.concat(ticks, ","))
            """) == nil)
    }

    @Test("a change made inside the countdown's own on_tick fires no extra tick (no recursion)")
    func noRecursion() {
        let h = ViewHarness()
        #expect(h.run("""
            view.label{ id = "x", text = "" }
            n = 0
            c = countdown.start{ seconds = 10, on_tick = function(t) n = n + 1; c:append(1) end }
            other = countdown.start{ seconds = 10, on_tick = function(t) if c then c:append(1) end end }
            """) == nil)
        h.advance(1)
        // c: first tick, one tick at 1 s; other's ticks append to c at once twice (at start and at 1 s).
        #expect(h.run("assert(n == 4, n)") == nil)
    }

    @Test("an `at` deadline already past fires one tick showing 0, then on_done")
    func pastDeadline() {
        let h = ViewHarness()
        #expect(h.run("""
            view.label{ id = "x", text = "" }
            events = {}
            countdown.start{ at = "2026-12-31T23:59:00+00:00",
              on_tick = function(t) events[#events + 1] = "tick " .. t.remaining end,
              on_done = function(t, why) events[#events + 1] = "done " .. why end }
            assert(table.concat(events, ",") == "tick 0.0,done finished", table.concat(events, ","))
            """) == nil)
    }
}
