import CountdownCore
import Testing

@Suite("FormatPattern renders a countdown label from tokens")
struct FormatPatternTests {
    @Test("days, padded hours, minutes, seconds and tenths")
    func fullPattern() throws {
        let pattern = try FormatPattern("{d}d {hh}:{mm}:{ss}.{t}")
        #expect(pattern.render(s(90061.5)) == "1d 01:01:01.5")
        #expect(pattern.render(0) == "0d 00:00:00.0")
    }

    @Test("total hours are not wrapped at a day")
    func totalHours() throws {
        #expect(try FormatPattern("{H}:{mm}:{ss}").render(s(3725)) == "1:02:05")
        #expect(try FormatPattern("{H}:{mm}:{ss}").render(s(90061)) == "25:01:01")
    }

    @Test("every token", arguments: [
        ("{d}", "1"), ("{h}", "1"), ("{hh}", "01"), ("{H}", "25"),
        ("{m}", "1"), ("{mm}", "01"), ("{M}", "1501"),
        ("{s}", "1"), ("{ss}", "01"), ("{S}", "90061"), ("{t}", "5"),
    ])
    func eachToken(token: String, rendered: String) throws {
        #expect(try FormatPattern(token).render(s(90061.5)) == rendered)
    }

    @Test("two-digit tokens pad below 10 and do not pad above")
    func padding() throws {
        let p = try FormatPattern("{hh}|{mm}|{ss}")
        #expect(p.render(s(9 * 3600 + 9 * 60 + 9)) == "09|09|09")
        #expect(p.render(s(23 * 3600 + 59 * 60 + 59)) == "23|59|59")
        #expect(p.render(s(10 * 3600 + 10 * 60 + 10)) == "10|10|10")
    }

    @Test("negative durations render as zero")
    func negative() throws {
        #expect(try FormatPattern("{d}d {hh}:{mm}:{ss}.{t}").render(s(-5)) == "0d 00:00:00.0")
        #expect(try FormatPattern("{S}").render(-1) == "0")
    }

    @Test("truncation: 1.96 s shows 1.9")
    func truncates() throws {
        #expect(try FormatPattern("{s}.{t}").render(s(1.96)) == "1.9")
    }

    @Test("an unknown token throws .unknownToken with the token in braces")
    func unknownToken() {
        #expect(throws: FormatPatternError.unknownToken("{x}")) { try FormatPattern("left {x} right") }
        #expect(throws: FormatPatternError.unknownToken("{}")) { try FormatPattern("{}") }
        #expect(throws: FormatPatternError.unknownToken("{SS}")) { try FormatPattern("{SS}") }
        #expect(throws: FormatPatternError.unknownToken("{ s }")) { try FormatPattern("{ s }") }
    }

    @Test("an unclosed brace throws .unclosedBrace at the brace's 1-based position")
    func unclosedBrace() {
        #expect(throws: FormatPatternError.unclosedBrace(position: 1)) { try FormatPattern("{hh") }
        #expect(throws: FormatPatternError.unclosedBrace(position: 4)) { try FormatPattern("ab {") }
        #expect(throws: FormatPatternError.unclosedBrace(position: 1)) { try FormatPattern("{h{m}") }
    }

    @Test("a lone closing brace throws .unmatchedClosingBrace at its position")
    func unmatchedClosingBrace() {
        #expect(throws: FormatPatternError.unmatchedClosingBrace(position: 3)) { try FormatPattern("ab}") }
        #expect(throws: FormatPatternError.unmatchedClosingBrace(position: 4)) { try FormatPattern("{s}}x") }
    }

    @Test("{{ and }} write literal braces")
    func escapes() throws {
        #expect(try FormatPattern("{{").render(0) == "{")
        #expect(try FormatPattern("}}").render(0) == "}")
        #expect(try FormatPattern("{{{s}}}").render(s(7)) == "{7}")
        #expect(try FormatPattern("{{hh}}").render(s(7)) == "{hh}")
    }

    @Test("literal text passes through unchanged, including non-ASCII")
    func literals() throws {
        #expect(try FormatPattern("").render(s(5)) == "")
        #expect(try FormatPattern("no tokens").render(s(5)) == "no tokens")
        #expect(try FormatPattern("⏳ {S} s — 残り").render(s(42)) == "⏳ 42 s — 残り")
        #expect(try FormatPattern("{s}{s}").render(s(3)) == "33")
    }

    @Test("error descriptions name the problem and list the known tokens")
    func errorDescriptions() {
        let unknown = FormatPatternError.unknownToken("{x}").description
        #expect(unknown.contains("{x}"))
        for token in FormatPattern.tokens { #expect(unknown.contains(token)) }
        #expect(FormatPatternError.unclosedBrace(position: 4).description.contains("4"))
        #expect(FormatPattern.tokens.count == 11)
    }

    @Test("patterns compare equal when they parse to the same pieces")
    func equality() throws {
        #expect(try FormatPattern("{s}") == FormatPattern("{s}"))
        #expect(try FormatPattern("{s}") != FormatPattern("{ss}"))
    }
}
