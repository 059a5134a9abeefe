import Testing
import TerminalView

@Suite("examples/sms_code.lua on a virtual terminal and clock")
struct SmsExampleTests {
    @Test("the resend button is disabled during the cooldown, enables at its end, and r starts it again")
    func resendCycle() throws {
        let h = ViewHarness(columns: 30, rows: 5)
        #expect(h.runExample("sms_code.lua", "60") == nil)
        #expect(h.screen == rows(
            "",
            "        Resend in 60s",
            "",
            "     [ Resend code (r) ]",
            ""))
        #expect(h.terminal.screen[3, 5].style.dim)
        #expect(h.terminal.title == "Verification code")
        #expect(h.press("r") == .disabled(id: "resend"))
        h.advance(1)
        #expect(h.terminal.screen.line(1) == "        Resend in 59s")
        h.advance(59)
        #expect(h.screen == rows(
            "",
            "     Didn't get the code?",
            "",
            "     [ Resend code (r) ]",
            ""))
        #expect(h.terminal.screen[3, 5].style == CellStyle(bold: true, colour: .green))
        #expect(h.scheduler.activeCount == 0)
        #expect(h.press("r") == .pressed(id: "resend"))
        #expect(h.terminal.screen.line(1) == "        Resend in 60s")
        #expect(h.terminal.screen[3, 5].style.dim)
        #expect(h.scheduler.activeCount == 1)
        #expect(h.host.vm.top == 0)
        #expect(h.errors.isEmpty)
    }

    @Test("plain output of the same script, line by line")
    func plainLines() {
        var lines: [String] = []
        let h = ViewHarness(plain: { lines.append($0) })
        #expect(h.runExample("sms_code.lua", "2") == nil)
        h.advance(2)
        _ = h.press("r")
        h.advance(1)
        #expect(lines == [
            "status: Resend in 2s",
            "resend: [Resend code] disabled",
            "status: Resend in 1s",
            "status: Didn't get the code?",
            "resend: [Resend code] enabled",
            "resend: [Resend code] disabled",
            "status: Resend in 2s",
            "status: Resend in 1s",
        ])
    }
}

@Suite("examples/flash_sale.lua and many.lua on a virtual terminal")
struct OtherExampleTests {
    @Test("flash sale: big digits with tenths, a progress bar, a title, and the bell at the end")
    func flashSale() {
        let h = ViewHarness(columns: 50, rows: 11)
        #expect(h.runExample("flash_sale.lua") == nil)
        h.advance(0)
        #expect(h.screen == rows(
            "",
            "                 The sale ends in",
            "",
            "        ███ ███   ███ ███   ███ ███   ███",
            "        █ █ █ █ █ █ █ █ █ █ █ █ █     █ █",
            "        █ █ █ █   █ █ █ █   █ █ ███   █ █",
            "        █ █ █ █ █ █ █ █ █ █ █ █   █   █ █",
            "        ███ ███   ███ ███   ███ ███ █ ███",
            "",
            "  ░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░   0%",
            ""))
        #expect(h.terminal.title == "Flash sale")
        h.advance(2.5)
        #expect(h.terminal.screen.line(9) == "  ████████████████████░░░░░░░░░░░░░░░░░░░░  50%")
        #expect(h.terminal.bells == 0)
        h.advance(2.5)
        #expect(h.terminal.screen.line(1) == "               The sale has ended.")
        #expect(h.terminal.screen[1, 16].style == CellStyle(bold: true, colour: .red))
        #expect(h.terminal.bells == 1)
        #expect(h.terminal.screen.line(9) == "  ████████████████████████████████████████ 100%")
    }

    @Test("many items on the one scheduler: a summary and the items closing next; a small terminal shows what fits")
    func many() {
        let h = ViewHarness(columns: 30, rows: 4)
        #expect(h.runExample("many.lua", "50", "3", "5") == nil)
        #expect(h.view.model.elements.count == 6)
        #expect(h.scheduler.activeCount == 51)
        #expect(h.screen == rows(
            "     50 of 50 items open",
            "    item-30 closes in 0.1s",
            "    item-1 closes in 0.2s",
            "    item-31 closes in 0.2s"))
        // The board ends 20 ms after the last item (it ticks just after each second's items close).
        h.advance(3.02)
        #expect(h.scheduler.activeCount == 0)
        #expect(h.terminal.screen.line(0) == "     all 50 items closed")
    }
}
