import Testing
import TerminalView

/// Issue 29: a hook's error while the view is open shows at once on the bottom
/// row, and the rest of the view keeps drawing.
@Suite("The error line at the bottom of the view")
struct ErrorLineTests {
    func view(_ terminal: VirtualTerminal) throws -> ViewController {
        let view = ViewController(output: .screen(terminal, colours: true))
        try view.add(.label, id: "status", fields: [("text", .string("Resend in 3s"))])
        view.render()
        return view
    }

    @Test("the error shows on the bottom row, in bold red; the elements keep changing above it")
    func showsAndViewRunsOn() throws {
        let terminal = VirtualTerminal(columns: 30, rows: 4)
        let view = try view(terminal)
        view.showError("error in on_tick: boom")
        view.render()
        #expect(terminal.screenText() == rows("", "         Resend in 3s", "", "    error in on_tick: boom"))
        #expect(terminal.screen[3, 4].style == ViewController.errorStyle)
        try view.set("status", fields: [("text", .string("Resend in 2s"))])
        view.render()
        #expect(terminal.screenText() == rows("", "         Resend in 2s", "", "    error in on_tick: boom"))
    }

    @Test("a later error replaces the line and counts the others")
    func laterErrorsCounted() throws {
        let terminal = VirtualTerminal(columns: 30, rows: 3)
        let view = try view(terminal)
        view.showError("first")
        view.showError("second")
        view.showError("third")
        view.render()
        #expect(terminal.screenText().hasSuffix("\n       third (+2 more)"), "\(terminal.screenText())")
        #expect(view.errorCount == 3)
    }

    @Test("with the pause note: the note above, the error at the bottom; one row shows the pause note alone")
    func withPauseNote() throws {
        let terminal = VirtualTerminal(columns: 30, rows: 4)
        let view = try view(terminal)
        view.setPausedBySpace(true)
        view.showError("boom")
        view.render()
        #expect(terminal.screenText() == rows("         Resend in 3s", "", "   paused — Space to resume", "             boom"))
        terminal.resize(columns: 30, rows: 1)
        view.redrawAll()
        view.render()
        #expect(terminal.screenText() == "   paused — Space to resume")
    }

    @Test("a long message is cut with … to the width; control characters are blanks")
    func longAndControl() throws {
        let terminal = VirtualTerminal(columns: 12, rows: 2)
        let view = try view(terminal)
        view.showError("a\u{1B}[2Jb and a long tail")
        view.render()
        #expect(terminal.screenText() == rows("Resend in 3s", "a [2Jb and …"))
    }

    @Test("nothing shows before the view opens, after it closes, or in plain output")
    func onlyWhileOpenOnScreen() throws {
        let terminal = VirtualTerminal(columns: 30, rows: 3)
        let unopened = ViewController(output: .screen(terminal, colours: true))
        unopened.showError("early")
        #expect(unopened.errorNote == nil)
        var lines: [String] = []
        let plain = ViewController(output: .plain { lines.append($0) })
        try plain.add(.label, id: "status", fields: [("text", .string("hi"))])
        plain.showError("boom")
        #expect(plain.errorNote == nil)
        #expect(lines == ["status: hi"])
    }
}
