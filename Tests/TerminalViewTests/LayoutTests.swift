import Testing
@testable import TerminalView

@Suite("Layout: elements top to bottom, centred, degrading on small terminals")
struct LayoutTests {
    let layout = Layout()

    @Test("a label and a button, centred with a blank row between them")
    func smsScreen() throws {
        let screen = layout.compose(try smsModel(), size: TerminalSize(columns: 30, rows: 7))
        #expect(screen.text == rows(
            "",
            "",
            "        Resend in 59s",
            "",
            "     [ Resend code (r) ]",
            "",
            ""))
    }

    @Test("big digits are five rows of blocks, centred")
    func bigDigits() throws {
        var model = ViewModel()
        try model.add(.big, id: "clock", fields: [("text", .string("12:05"))])
        let screen = layout.compose(model.elements, size: TerminalSize(columns: 21, rows: 5))
        #expect(screen.text == rows(
            "   █  ███   ███ ███",
            "  ██    █ █ █ █ █",
            "   █  ███   █ █ ███",
            "   █  █   █ █ █   █",
            "  ███ ███   ███ ███"))
    }

    @Test("a progress bar shows its share filled and a percentage")
    func progress() throws {
        var model = ViewModel()
        try model.add(.progress, id: "bar", fields: [("value", .number(0.5))])
        let screen = layout.compose(model.elements, size: TerminalSize(columns: 15, rows: 1))
        #expect(screen.text == "█████░░░░░  50%")
        let tiny = layout.compose(model.elements, size: TerminalSize(columns: 6, rows: 1))
        #expect(tiny.text == " 50%")
    }

    @Test("without room for blank rows, elements stack tightly")
    func noGaps() throws {
        let screen = layout.compose(try smsModel(), size: TerminalSize(columns: 30, rows: 2))
        #expect(screen.text == rows(
            "        Resend in 59s",
            "     [ Resend code (r) ]"))
    }

    @Test("one row shows the first label or big text as plain text; more rows add the others in order")
    func oneLine() throws {
        var model = ViewModel()
        try model.add(.progress, id: "bar", fields: [("value", .number(0.5))])
        try model.add(.big, id: "clock", fields: [("text", .string("00:59"))])
        try model.add(.label, id: "status", fields: [("text", .string("left"))])
        let screen = layout.compose(model.elements, size: TerminalSize(columns: 11, rows: 1))
        #expect(screen.text == "   00:59")
        let two = layout.compose(model.elements, size: TerminalSize(columns: 11, rows: 2))
        #expect(two.text == rows("███░░░  50%", "   00:59"))
    }

    @Test("big digits too wide for the terminal become one line of text")
    func bigFallsBack() throws {
        var model = ViewModel()
        try model.add(.big, id: "clock", fields: [("text", .string("1d 02:03:04.5"))])
        let screen = layout.compose(model.elements, size: TerminalSize(columns: 20, rows: 6))
        #expect(screen.text == "\n\n   1d 02:03:04.5\n\n\n")
        #expect(screen[2, 3].style.bold)
    }

    @Test("rows wider than the terminal are cut with an ellipsis")
    func truncation() throws {
        let screen = layout.compose(try smsModel(), size: TerminalSize(columns: 8, rows: 2))
        #expect(screen.text == "Resend …\n[ Resen…")
    }

    @Test("a terminal with no rows or columns shows nothing, without crashing")
    func empty() throws {
        for size in [TerminalSize(columns: 0, rows: 0), TerminalSize(columns: 10, rows: 0), TerminalSize(columns: 0, rows: 3)] {
            #expect(layout.compose(try smsModel(), size: size).text.allSatisfy { $0 == "\n" })
        }
        let one = layout.compose(try smsModel(), size: TerminalSize(columns: 1, rows: 1))
        #expect(one.text == "R")
    }

    @Test("disabled buttons are dim; enabled ones bold and coloured unless colours are off")
    func buttonStyles() throws {
        let size = TerminalSize(columns: 30, rows: 3)
        let disabled = layout.compose(try smsModel(enabled: false), size: size)
        let enabled = layout.compose(try smsModel(enabled: true), size: size)
        let column = 6
        #expect(disabled[2, column].style == CellStyle(dim: true))
        #expect(enabled[2, column].style == CellStyle(bold: true, colour: .green))
        let plain = Layout(colours: false).compose(try smsModel(enabled: true), size: size)
        #expect(plain[2, column].style == CellStyle(bold: true))
        #expect(plain.text == enabled.text)
    }

    @Test("a label's style words become cell styles")
    func labelStyle() throws {
        var model = ViewModel()
        try model.add(.label, id: "h", fields: [("text", .string("Sale")), ("style", .string("bold yellow underline"))])
        let screen = layout.compose(model.elements, size: TerminalSize(columns: 4, rows: 1))
        #expect(screen[0, 0].style == CellStyle(bold: true, underline: true, colour: .yellow))
    }
}
