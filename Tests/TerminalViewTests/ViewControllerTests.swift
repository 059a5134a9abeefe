import Testing
import TerminalView

@Suite("ViewController on a VirtualTerminal: what a user sees after each change")
struct ViewControllerTests {
    func smsView(_ terminal: VirtualTerminal, colours: Bool = true) throws -> ViewController {
        let view = ViewController(output: .screen(terminal, colours: colours))
        try view.add(.label, id: "status", fields: [("text", .string("Resend in 3s"))])
        try view.add(.button, id: "resend", fields: [
            ("label", .string("Resend code")), ("key", .string("r")), ("enabled", .boolean(false)),
        ])
        return view
    }

    @Test("the view takes the terminal over when its first element appears, not before")
    func opensOnFirstElement() throws {
        let terminal = VirtualTerminal(columns: 24, rows: 5)
        let view = ViewController(output: .screen(terminal, colours: true))
        view.setTitle("Code")
        #expect(!view.isOpen && terminal.begun == 0 && !terminal.inAlternateScreen)
        try view.add(.label, id: "status", fields: [("text", .string("hi"))])
        #expect(view.isOpen && terminal.inAlternateScreen && !terminal.cursorVisible)
        view.render()
        #expect(terminal.title == "Code")
        #expect(terminal.screenText() == "\n\n           hi\n\n")
    }

    @Test("snapshots after each change: cooldown ticks, then the button enables")
    func snapshots() throws {
        let terminal = VirtualTerminal(columns: 26, rows: 5)
        let view = try smsView(terminal)
        view.render()
        #expect(terminal.screenText() == rows(
            "",
            "       Resend in 3s",
            "",
            "   [ Resend code (r) ]",
            ""))
        try view.set("status", fields: [("text", .string("Resend in 2s"))])
        view.render()
        #expect(terminal.screen.line(1) == "       Resend in 2s")
        try view.set("status", fields: [("text", .string("Didn't get the code?"))])
        try view.set("resend", fields: [("enabled", .boolean(true))])
        view.render()
        #expect(terminal.screenText() == rows(
            "",
            "   Didn't get the code?",
            "",
            "   [ Resend code (r) ]",
            ""))
        #expect(terminal.screen[3, 3].style == CellStyle(bold: true, colour: .green))
        #expect(terminal.screenText() == view.screenText())
    }

    @Test("changes between renders are drawn once, as one write")
    func batched() throws {
        let terminal = VirtualTerminal(columns: 26, rows: 5)
        let view = try smsView(terminal)
        view.render()
        let before = terminal.output.count
        for s in [9, 8, 7] { try view.set("status", fields: [("text", .string("Resend in \(s)s"))]) }
        view.render()
        let written = terminal.output.dropFirst(before)
        #expect(written == "\u{1B}[2;18H\u{1B}[0m7")
        view.render()
        #expect(terminal.output.count == before + written.count)
    }

    @Test("a resize redraws to fit the new size")
    func resize() throws {
        let terminal = VirtualTerminal(columns: 26, rows: 5)
        let view = try smsView(terminal)
        view.render()
        terminal.resize(columns: 14, rows: 1)
        view.redrawAll()
        view.render()
        #expect(terminal.screenText() == " Resend in 3s")
        terminal.resize(columns: 40, rows: 3)
        view.redrawAll()
        view.render()
        #expect(terminal.screenText() == rows(
            "              Resend in 3s",
            "",
            "          [ Resend code (r) ]"))
    }

    @Test("keys: a disabled button ignores its key; q quits; Space toggles pause unless bound")
    func keys() throws {
        let terminal = VirtualTerminal(columns: 26, rows: 5)
        let view = try smsView(terminal)
        #expect(view.press("r") == .disabled(id: "resend"))
        try view.set("resend", fields: [("enabled", .boolean(true))])
        #expect(view.press("r") == .pressed(id: "resend"))
        #expect(view.press("x") == .unbound)
        #expect(view.press("space") == .togglePause)
        try view.add(.button, id: "pause", fields: [("label", .string("Pause")), ("key", .string(" "))])
        #expect(view.press("space") == .pressed(id: "pause"))
        #expect(!view.isClosed)
        #expect(view.press("q") == .quit)
        #expect(view.isClosed)
    }

    @Test("without colours no colour sequence is written; dim and bold stay")
    func noColour() throws {
        let terminal = VirtualTerminal(columns: 26, rows: 5)
        let view = try smsView(terminal, colours: false)
        try view.set("resend", fields: [("enabled", .boolean(true))])
        try view.set("status", fields: [("style", .string("red"))])
        view.render()
        #expect(!terminal.output.contains(";3"))
        #expect(terminal.screen[3, 3].style == CellStyle(bold: true))
    }

    @Test("the bell rings once per call, on the next render")
    func bell() throws {
        let terminal = VirtualTerminal(columns: 26, rows: 5)
        let view = try smsView(terminal)
        view.bell()
        view.render()
        #expect(terminal.bells == 1)
    }

    @Test("a closed view draws nothing more")
    func closed() throws {
        let terminal = VirtualTerminal(columns: 26, rows: 5)
        let view = try smsView(terminal)
        view.render()
        view.close()
        let written = terminal.output.count
        try view.set("status", fields: [("text", .string("later"))])
        view.render()
        #expect(terminal.output.count == written)
    }

    @Test("plain output: one line per change of an element, none for a change that shows nothing new")
    func plain() throws {
        var lines: [String] = []
        let view = ViewController(output: .plain { lines.append($0) })
        view.setTitle("ignored")
        view.bell()
        try view.add(.label, id: "status", fields: [("text", .string("Resend in 2s"))])
        try view.add(.button, id: "resend", fields: [("label", .string("Resend code")), ("key", .string("r")), ("enabled", .boolean(false))])
        try view.add(.progress, id: "bar", fields: [("value", .number(0.123))])
        try view.add(.big, id: "clock", fields: [("text", .string("00:02"))])
        try view.set("status", fields: [("text", .string("Resend in 2s"))])
        try view.set("bar", fields: [("value", .number(0.125))])
        try view.set("status", fields: [("style", .string("bold"))])
        try view.set("resend", fields: [("enabled", .boolean(true))])
        try view.set("bar", fields: [("value", .number(1))])
        #expect(lines == [
            "status: Resend in 2s",
            "resend: [Resend code] disabled",
            "bar: 12%",
            "clock: 00:02",
            "resend: [Resend code] enabled",
            "bar: 100%",
        ])
        #expect(lines.allSatisfy { !$0.contains("\u{1B}") && !$0.contains("\u{07}") })
        #expect(view.screenText() == "status: Resend in 2s\nresend: [Resend code] enabled\nbar: 100%\nclock: 00:02")
    }

    @Test("with more elements than rows, changes to the ones off screen cost no redraw")
    func offScreen() throws {
        let terminal = VirtualTerminal(columns: 20, rows: 2)
        let view = ViewController(output: .screen(terminal, colours: true))
        for i in 1...100 { try view.add(.label, id: "item-\(i)", fields: [("text", .string("item \(i)"))]) }
        view.render()
        #expect(terminal.screenText() == rows("       item 1", "       item 2"))
        let written = terminal.output.count
        for i in 3...100 { try view.set("item-\(i)", fields: [("text", .string("changed \(i)"))]) }
        view.render()
        #expect(terminal.output.count == written)
        try view.set("item-2", fields: [("text", .string("changed 2"))])
        view.render()
        #expect(terminal.screenText() == rows("       item 1", "     changed 2"))
        terminal.resize(columns: 20, rows: 4)
        view.redrawAll()
        view.render()
        #expect(terminal.screenText() == rows("       item 1", "     changed 2", "     changed 3", "     changed 4"))
    }

    @Test("control characters in a script's text become blanks, on screen and in plain lines")
    func controlCharacters() throws {
        let terminal = VirtualTerminal(columns: 12, rows: 1)
        let view = ViewController(output: .screen(terminal, colours: true))
        try view.add(.label, id: "s", fields: [("text", .string("a\nb\u{1B}[2Jc"))])
        view.render()
        #expect(terminal.screenText() == "  a b [2Jc")
        #expect(!terminal.output.contains("\u{1B}[2Jc"))
        var lines: [String] = []
        let plain = ViewController(output: .plain { lines.append($0) })
        try plain.add(.label, id: "s", fields: [("text", .string("one\ntwo\u{7}"))])
        #expect(lines == ["s: one two "])
    }

    @Test("the virtual terminal leaves the alternate screen and shows the cursor at the end")
    func end() throws {
        let terminal = VirtualTerminal(columns: 26, rows: 5)
        terminal.write("before")
        let view = try smsView(terminal)
        view.render()
        terminal.end()
        terminal.end()
        #expect(!terminal.inAlternateScreen && terminal.cursorVisible && terminal.ended == 1)
        #expect(terminal.screenText().hasPrefix("before"))
    }
}
