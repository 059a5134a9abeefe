import Testing
import TerminalView

@Suite("View ids are bytes: buttons whose ids differ only in normal form keep their own on_press")
struct ViewElementIDBytesTests {
    @Test("\"café\" in NFC and in NFD: two buttons, each key runs its own hook")
    func ownHooks() {
        let h = ViewHarness(columns: 40, rows: 5)
        #expect(h.run(#"""
            pressed = {}
            view.button{ id = "caf\u{E9}", label = "one", key = "a", on_press = function() pressed[#pressed + 1] = "nfc" end }
            view.button{ id = "cafe\u{301}", label = "two", key = "b", on_press = function() pressed[#pressed + 1] = "nfd" end }
            countdown.start{ seconds = 10 }
            """#) == nil)
        _ = h.press("a")
        _ = h.press("b")
        #expect(h.run(#"assert(table.concat(pressed, " ") == "nfc nfd", table.concat(pressed, " "))"#) == nil)
        #expect(h.errors.isEmpty, "\(h.errors)")
    }
}
