import CountdownCore
import Testing

@Suite("Ids shown on a terminal have their control characters escaped")
struct VisibleTextTests {
    @Test("C0 controls, DEL and C1 controls become escapes; other text stays as it is", arguments: [
        ("plain id", "plain id"),
        ("caf\u{E9} \u{1F600}", "caf\u{E9} \u{1F600}"),
        ("a\u{1B}[2Jb", "a\\e[2Jb"),
        ("line\nbreak\ttab\rret", "line\\nbreak\\ttab\\rret"),
        ("nul\u{0}del\u{7F}", "nul\\x00del\\x7f"),
        ("csi\u{9B}2J", "csi\\u{009b}2J"),
        ("back\\slash", "back\\\\slash"),
    ])
    func escapes(_ pair: (String, String)) {
        #expect(VisibleText.escaped(pair.0) == pair.1)
    }

    @Test("no output ever holds a control character")
    func noControlsLeft() {
        let all = String(String.UnicodeScalarView((0..<0x200).compactMap(Unicode.Scalar.init)))
        let out = VisibleText.escaped(all)
        #expect(!out.unicodeScalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) })
    }
}
