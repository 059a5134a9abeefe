import Testing
@testable import TerminalView

@Suite("DisplayWidth: columns by grapheme cluster, as a terminal draws text")
struct DisplayWidthTests {
    @Test("ASCII is one column a character; East Asian wide and fullwidth characters two")
    func wide() {
        #expect(DisplayWidth.of("abc") == 3)
        #expect(DisplayWidth.of("长") == 2)
        #expect(DisplayWidth.of("限时抢购") == 8)
        #expect(DisplayWidth.of("名前") == 4)
        #expect(DisplayWidth.of("Ａ") == 2)  // fullwidth A
        #expect(DisplayWidth.of("ｱ") == 1)  // halfwidth katakana
        #expect(DisplayWidth.of("🍅") == 2)
        #expect(DisplayWidth.of("倒计时还有十秒钟") == 16)
    }

    @Test("emoji sequences are one cluster two columns wide: ZWJ, flags, skin tones, keycaps, VS16")
    func emojiSequences() {
        let family = "\u{1F469}\u{200D}\u{1F469}\u{200D}\u{1F467}"
        let cases: [(String, Int)] = [
            (family, 2), ("\u{1F468}\u{200D}\u{1F4BB}", 2),
            ("🇯🇵", 2), ("\u{1F44D}\u{1F3FD}", 2), ("1\u{FE0F}\u{20E3}", 2), ("#\u{FE0F}\u{20E3}", 2),
            ("\u{2764}\u{FE0F}", 2), ("\u{1F3F3}\u{FE0F}\u{200D}\u{1F308}", 2),
        ]
        for (text, width) in cases {
            #expect(DisplayWidth.clusters(text).count == 1, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
            #expect(DisplayWidth.of(text) == width, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
        #expect(DisplayWidth.of("\u{2764}") == 1)  // text presentation without VS16
        #expect(DisplayWidth.clusters("🇯🇵🇨🇳").map(\.width) == [2, 2])
        #expect(DisplayWidth.of("a\(family)b") == 4)
    }

    @Test("combining marks and zero-width characters add nothing")
    func zeroWidth() {
        #expect(DisplayWidth.of("e\u{301}") == 1)
        #expect(DisplayWidth.clusters("e\u{301}x").map(\.width) == [1, 1])
        #expect(DisplayWidth.of("a\u{200B}b") == 2)
        #expect(DisplayWidth.of("\u{200B}") == 0)
        #expect(DisplayWidth.of("ק\u{5B8}") == 1)  // a Hebrew point
        #expect(DisplayWidth.of("\u{1100}\u{1161}\u{11A8}") == 2)  // a Hangul syllable from jamo
    }

    @Test("truncation cuts at a cluster boundary, never half a wide character, then …")
    func truncation() {
        #expect(DisplayWidth.truncate("长长长", toColumns: 6) == "长长长")
        #expect(DisplayWidth.truncate("长长长", toColumns: 5) == "长长…")
        #expect(DisplayWidth.truncate("长长长", toColumns: 4) == "长…")
        #expect(DisplayWidth.truncate("e\u{301}e\u{301}e\u{301}", toColumns: 2) == "e\u{301}…")
        #expect(DisplayWidth.truncate("🇯🇵🇯🇵", toColumns: 3) == "🇯🇵…")
        #expect(DisplayWidth.padded("名前", toColumns: 6) == "名前  ")
    }
}
