import Foundation
import LuaHost
import TerminalView
import Testing

/// `cdscript timer SPEC --then DURATION --rounds N` (timer.lua on the `sequence`
/// plugin) on a virtual clock and terminal: what a pomodoro shows and rings.
@Suite("The timer's pomodoro rounds on the screen")
struct TimerRoundsTests {
    @Test("one bell at every phase's end, the phase above the digits, and the run ends after the last work")
    func bellPerPhase() {
        let h = ViewHarness(columns: 60, rows: 14)
        #expect(TimerScriptTests.timer(h, "2m", "--then", "1m", "--rounds", "3", "--every", "60") == nil)
        var seen: [String] = []
        var bells: [Int] = []
        for step in [120.0, 60, 120, 60, 120] {
            seen.append(h.view.element("title")?.text ?? "-")
            h.advance(step)
            bells.append(h.terminal.bells)
        }
        #expect(seen == ["work 1/3", "break 1/3", "work 2/3", "break 2/3", "work 3/3"])
        #expect(bells == [1, 2, 3, 4, 5], "one bell per phase end")
        #expect(h.view.isClosed, "the run ends with the last work")
        #expect(h.view.element("status")?.text == "Time's up")
    }

    @Test("the window title shows the time left, then the phase")
    func windowTitle() {
        let h = ViewHarness(columns: 60, rows: 14)
        #expect(TimerScriptTests.timer(h, "25m", "--then", "5m", "--rounds", "4") == nil)
        h.advance(1500.5)
        #expect(h.terminal.title == "4:59.5 · break 1/4")
    }

    @Test("--no-bell rings no bell at any phase's end")
    func noBell() {
        let h = ViewHarness(columns: 60, rows: 14)
        #expect(TimerScriptTests.timer(h, "2m", "--then", "1m", "--rounds", "2", "--every", "60", "--no-bell") == nil)
        h.advance(300)
        #expect(h.view.isClosed)
        #expect(h.terminal.bells == 0)
    }
}
