import Testing
import TerminalView

@Suite("KeyDecoder: raw terminal bytes and input lines become key names")
struct KeyDecoderTests {
    @Test("letters, space, enter, arrows, Ctrl-C and UTF-8")
    func bytes() {
        let input: [UInt8] = Array("r ".utf8) + [0x0D, 0x1B, 0x5B, 0x41, 0x03, 0x7F, 0x09] + Array("é".utf8) + [0x1B]
        #expect(KeyDecoder.keys(input) == ["r", "space", "enter", "up", "ctrl-c", "backspace", "tab", "é", "escape"])
    }

    @Test("unknown escape sequences and other control bytes are dropped")
    func dropped() {
        #expect(KeyDecoder.keys([0x1B, 0x5B, 0x31, 0x35, 0x7E, 0x01, 0x61]) == ["a"])
    }

    @Test("plain-mode lines: one key per line", arguments: [
        ("r", "r"), ("r\r", "r"), (" ", "space"), ("space", "space"), ("  q  ", "q"), ("", nil), ("hello", nil),
    ] as [(String, String?)])
    func lines(line: String, key: String?) {
        #expect(KeyDecoder.key(line: line) == key)
    }

    @Test("lines split across reads are joined; a last line without newline counts")
    func splitter() {
        var splitter = LineSplitter()
        #expect(splitter.feed(Array("r\nsp".utf8)) == ["r"])
        #expect(splitter.feed(Array("ace\n".utf8)) == ["space"])
        #expect(splitter.feed(Array("q".utf8)) == [])
        #expect(splitter.finish() == "q")
        #expect(splitter.finish() == nil)
    }
}
