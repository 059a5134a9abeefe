import Foundation
import Testing

/// Issue 29: a hook that fails while the view is open shows at once on the
/// screen (the bottom row: the countdown's id and the message); the rest keeps
/// running; the traceback is printed after the terminal is given back.
@Suite("A hook error with the view open: the real binary in tmux",
       .enabled(if: Tmux.isAvailable, "needs tmux (scripts/setup installs it)"))
struct HookErrorViewEndToEndTests {
    @Test("the error line shows while the view runs on; q ends the run and the traceback follows")
    func errorLineThenTraceback() throws {
        let path = try BinaryRunner.script("""
            view.label{ id = "left", text = "starting" }
            countdown.start{ id = "clock", seconds = 60, every = 0.2,
                             on_tick = function(t) view.set("left", { text = ("left %.1f"):format(t.remaining) }) end }
            countdown.start{ id = "spin", seconds = 60, every = 0.2, on_tick = function(t)
              if t.remaining < 59.5 then error("it broke", 0) end
            end }
            """)
        let tmux = try Tmux([path], columns: 80, rows: 8)
        defer { tmux.stop() }
        try tmux.waitForText(#"error in on_tick of countdown "spin": "#)
        let lines = try tmux.lines()
        #expect(lines.last == #"                 error in on_tick of countdown "spin": it broke"#, "\(lines)")
        #expect(!lines.contains { $0.contains("stack traceback") }, "\(lines)")
        // The rest runs on: the label keeps changing under the error.
        let before = lines.first { $0.contains("left ") }
        try tmux.waitUntil("the label moved on") { try tmux.lines().first { $0.contains("left ") } != before }
        try tmux.send("q")
        try tmux.waitUntil("the end of the run") { tmux.hasEnded }
        #expect(try tmux.display("#{alternate_on} #{cursor_flag}") == "0 1")
        let screen = try tmux.screen()
        #expect(screen.contains(#"cdscript: error in on_tick of countdown "spin": "#), "\(screen)")
        #expect(screen.contains("stack traceback:"), "\(screen)")
    }
}
