import Testing
@testable import TerminalView

@Suite("Wide characters: the virtual terminal, the renderer and the layout")
struct WideCellTests {
    @Test("the virtual terminal puts a wide character in two cells, as a terminal does")
    func twoCells() {
        let vt = VirtualTerminal(columns: 10, rows: 2)
        vt.write("长a")
        #expect(vt.screen[0, 0].text == "长")
        #expect(vt.screen[0, 1].isContinuation)
        #expect(vt.screen[0, 2].text == "a")
        #expect(vt.screenText() == "长a\n")
    }

    @Test("writing over either half of a wide character blanks its other half")
    func halves() {
        let vt = VirtualTerminal(columns: 10, rows: 1)
        vt.write("倒计时")
        vt.write("\u{1B}[1;1Hab")
        #expect(vt.screenText() == "ab计时")
        vt.write("\u{1B}[1;4Hx")  // the right half of 计
        #expect(vt.screenText() == "ab x时")
        vt.write("\u{1B}[1;5H🍅")  // over x's right neighbour: 时's left half
        #expect(vt.screenText() == "ab x🍅")
    }

    @Test("a zero-width character joins the cell before it; text at the right edge wraps")
    func joinAndWrap() {
        let vt = VirtualTerminal(columns: 5, rows: 3)
        vt.write("e\u{301}")
        #expect(vt.screen[0, 0].text == "e\u{301}")
        #expect(vt.screen[0, 1].text == " ")
        vt.write("\u{1B}[1;1H长长长")  // 6 columns on a 5-column row
        #expect(vt.screenText() == "长长\n长\n")
    }

    @Test("the renderer writes a wide cluster once and moves past its continuation")
    func frames() throws {
        var writer = FrameWriter()
        var model = ViewModel()
        try model.add(.label, id: "l", fields: [("text", .string("倒计时还有十秒钟"))])
        let vt = VirtualTerminal(columns: 20, rows: 1)
        vt.write(writer.frame(Layout().compose(model.elements, size: vt.size)))
        #expect(vt.screenText() == "  倒计时还有十秒钟")
        try model.set("l", fields: [("text", .string("ab"))])
        vt.write(writer.frame(Layout().compose(model.elements, size: vt.size)))
        #expect(vt.screenText() == "         ab")
    }

    /// The label cycle of issue 13, drawn frame after frame on one virtual terminal:
    /// what the terminal shows is always exactly the wanted screen.
    @Test("a label cycling through Chinese, ASCII and emoji leaves no stale cells", arguments: [80, 21, 9])
    func labelCycle(columns: Int) throws {
        let vt = VirtualTerminal(columns: columns, rows: 5)
        let view = ViewController(output: .screen(vt, colours: true))
        try view.add(.label, id: "l", fields: [("text", .string("倒计时还有十秒钟"))])
        for text in ["倒计时还有十秒钟", "ab", "🍅🍅🍅", "x", "倒计时还有十秒钟", "🍅x🍅", "ab"] {
            try view.set("l", fields: [("text", .string(text))])
            view.render()
            let wanted = Layout().compose(view.model.elements, size: vt.size)
            #expect(vt.screenText() == wanted.text, "after \(text)")
            #expect(vt.screen == wanted, "after \(text)")
            #expect(vt.screenText().contains(DisplayWidth.truncate(text, toColumns: columns)))
        }
    }

    @Test("string.rep('长', 60) at 80 columns is cut with … on its own row")
    func longChinese() throws {
        let vt = VirtualTerminal(columns: 80, rows: 3)
        let view = ViewController(output: .screen(vt, colours: false))
        try view.add(.label, id: "l", fields: [("text", .string(String(repeating: "长", count: 60)))])
        view.render()
        #expect(vt.screenText() == "\n" + String(repeating: "长", count: 39) + "…\n")
        // An odd width: the 40th 长 would be cut in half, so it goes whole.
        vt.resize(columns: 9, rows: 3)
        view.redrawAll()
        view.render()
        #expect(vt.screenText() == "\n长长长长…\n")
    }

    @Test("限时抢购 is centred by its width: 8 columns")
    func centred() throws {
        var model = ViewModel()
        try model.add(.label, id: "h", fields: [("text", .string("限时抢购"))])
        let screen = Layout().compose(model.elements, size: TerminalSize(columns: 80, rows: 1))
        #expect(screen.text == String(repeating: " ", count: 36) + "限时抢购")
        let odd = Layout().compose(model.elements, size: TerminalSize(columns: 11, rows: 1))
        #expect(odd.text == " 限时抢购")
    }

    @Test("buttons and one-line big text are measured by width too")
    func buttonsAndBig() throws {
        var model = ViewModel()
        try model.add(.button, id: "b", fields: [("label", .string("重新发送")), ("key", .string("r"))])
        try model.add(.big, id: "c", fields: [("text", .string("59秒"))])
        let screen = Layout().compose(model.elements, size: TerminalSize(columns: 20, rows: 2))
        #expect(screen.line(0) == "  [ 重新发送 (r) ]")  // 16 columns in 20
        #expect(screen.line(1) == "        59秒")
    }

    @Test("with one row, the element that changes is kept: big text, else a ticking label")
    func oneRowKeepsWhatChanges() throws {
        var model = ViewModel()
        try model.add(.label, id: "heading", fields: [("text", .string("The sale ends in"))])
        try model.add(.big, id: "clock", fields: [("text", .string("00:00:05.0"))])
        try model.add(.progress, id: "bar", fields: [("value", .number(0))])
        let one = Layout().compose(model.elements, size: TerminalSize(columns: 20, rows: 1))
        #expect(one.text == "     00:00:05.0")
        var labels = ViewModel()
        try labels.add(.label, id: "title", fields: [("text", .string("Resend"))])
        try labels.add(.label, id: "status", fields: [("text", .string("in 5s"))])
        try labels.set("status", fields: [("text", .string("in 4s"))])
        #expect(Layout().compose(labels.elements, size: TerminalSize(columns: 9, rows: 1)).text == "  in 4s")
    }
}
