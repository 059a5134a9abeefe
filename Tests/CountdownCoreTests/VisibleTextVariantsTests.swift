import CountdownCore
import Foundation
import Testing

/// The forms of the one escaping: for reports of several lines, for deciding
/// whether text may be offered raw, and for JSON texts.
@Suite("VisibleText: reports, completion checks and JSON")
struct VisibleTextVariantsTests {
    static let hostile = "A\u{1B}[2J\u{7}\u{9B}31m\u{1B}]52;c;cHduZWQ=\u{7}\u{202E}Z"

    @Test("escapedKeepingLayout keeps newlines, tabs and backslashes and escapes the rest as escaped does")
    func keepingLayout() {
        #expect(VisibleText.escapedKeepingLayout("a\n\tb\\c " + Self.hostile)
            == "a\n\tb\\c " + #"A\e[2J\x07\u{009b}31m\e]52;c;cHduZWQ=\x07\u{202e}Z"#)
        #expect(VisibleText.escapedKeepingLayout("plain") == "plain")
    }

    @Test("hasControls: any character escaped would change, except a backslash", arguments: [
        ("tea", false), ("back\\slash", false), ("caf\u{E9} \u{1F600}", false),
        ("a\u{1B}", true), ("a\u{7}", true), ("a\u{9B}", true), ("a\u{202E}", true), ("a\u{2067}", true), ("a\n", true),
    ])
    func hasControls(_ pair: (String, Bool)) {
        #expect(VisibleText.hasControls(pair.0) == pair.1)
    }

    @Test("jsonEscapingControls writes C1, DEL and bidi overrides as \\u escapes; a parser reads the same strings")
    func json() throws {
        let data = try JSONEncoder().encode([Self.hostile + "\u{7F}\u{2028}"])
        let raw = String(decoding: data, as: UTF8.self)
        let safe = VisibleText.jsonEscapingControls(raw)
        #expect(!safe.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0.value == 0x202E || $0.value == 0x2028 })
        #expect(safe.contains(#"\u009b31m"#) && safe.contains(#"\u202eZ"#), "\(safe)")
        #expect(try JSONDecoder().decode([String].self, from: Data(safe.utf8)) == [Self.hostile + "\u{7F}\u{2028}"])
    }
}
