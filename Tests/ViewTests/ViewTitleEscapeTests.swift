import CountdownCore
import Testing
import TerminalView

/// The window title goes into an OSC sequence: a script's control characters
/// there could end it and start another (an OSC 52 clipboard write, say).
@Suite("view.title: no control character of the script's reaches the terminal")
struct ViewTitleEscapeTests {
    /// ESC [2J, BEL, C1 CSI (U+009B), C1 ST (U+009C), an OSC 52 clipboard write, a right-to-left override.
    static let hostileLua = #"A\27[2J\7\u{9B}31m\u{9C}\27]52;c;cHduZWQ=\7\u{202E}Z"#

    @Test("the title is escaped as ids are (VisibleText), and the OSC sequence holds no control character")
    func titleEscaped() {
        let h = ViewHarness()
        #expect(h.run("view.title(\"\(Self.hostileLua)\") view.label{ id = 'a', text = 'x' }") == nil)
        _ = h.screen
        let expected = #"A\e[2J\x07\u{009b}31m\u{009c}\e]52;c;cHduZWQ=\x07\u{202e}Z"#
        #expect(h.terminal.title == expected)
        let output = h.terminal.output
        #expect(output.contains("\u{1B}]0;\(expected)\u{07}"))
        #expect(!output.contains("\u{1B}]52"))
        #expect(!output.unicodeScalars.contains { (0x80...0x9F).contains($0.value) || $0.value == 0x202E })
    }

    @Test("ANSI.title, the last guard, drops C0, DEL and C1 controls (U+009C ends an OSC in xterm)")
    func ansiTitleDropsC1() {
        #expect(ANSI.title("a\u{9C}b\u{1B}c\u{7F}d\u{9B}e") == "\u{1B}]0;abcde\u{07}")
    }
}

@Suite("view text: no control character or bidi override reaches the terminal, full screen or plain")
struct ViewTextControlTests {
    static let hostileLua = ViewTitleEscapeTests.hostileLua

    static func hasControls(_ text: String) -> Bool {
        text.unicodeScalars.contains { (0x80...0x9F).contains($0.value) || (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value) }
    }

    @Test("a label's ESC, BEL, C1, OSC 52 and bidi override are drawn as blanks on the full screen")
    func fullScreen() {
        let h = ViewHarness()
        #expect(h.run("view.label{ id = 'a', text = \"\(Self.hostileLua)\" } view.button{ id = 'b', label = \"\(Self.hostileLua)\", key = 'r' }") == nil)
        _ = h.screen
        #expect(!h.terminal.output.contains("\u{1B}]52"))
        #expect(!h.terminal.output.contains("\u{07}"))
        #expect(!Self.hasControls(h.terminal.output), "\(h.terminal.output.debugDescription)")
    }

    @Test("plain lines: the same, one line per change")
    func plainLines() {
        var lines: [String] = []
        let h = ViewHarness(plain: { lines.append($0) })
        #expect(h.run("view.label{ id = 'a', text = \"\(Self.hostileLua)\" }") == nil)
        #expect(lines == ["a: A [2J  31m  ]52;c;cHduZWQ=  Z"], "\(lines.map(\.debugDescription))")
    }
}
