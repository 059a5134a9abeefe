import CountdownCore
import Foundation
import PropertyBased
import Testing

/// `cancel --match PATTERN` reads patterns as the shell does: held to the C library's
/// fnmatch(3) (no flags: `/` and a leading `.` are ordinary) over random patterns and ids.
@Suite("An id pattern matches what fnmatch(3) matches")
struct IDPatternFuzzTests {
    static let patternAlphabet: [Character] = Array("ab*?[]!-\\/.")
    static let idAlphabet: [Character] = Array("ab*?[]-\\/.c")

    @Test("random patterns over random ids: the same verdict as fnmatch, or both refuse the pattern")
    func againstFnmatch() async {
        await propertyCheck(count: 4000 * ParserFuzzTests.scale,
                            input: Gen.int(in: 0...(Self.patternAlphabet.count - 1)).array(of: 0...8),
                            Gen.int(in: 0...(Self.idAlphabet.count - 1)).array(of: 0...8)) { p, i in
            let pattern = String(p.map { Self.patternAlphabet[$0] })
            let id = String(i.map { Self.idAlphabet[$0] })
            let reference = fnmatch(pattern, id, 0) == 0
            guard let parsed = try? IDPattern(pattern) else {
                // glibc takes an unclosed [ as a literal [; cdscript refuses it (a typo, not a wish).
                // A \ that ends a pattern: fnmatch matches nothing, cdscript refuses it.
                #expect(pattern.contains("[") || pattern.hasSuffix("\\"), "\(pattern.debugDescription) refused without a [ or a final \\")
                return
            }
            #expect(parsed.matches(id) == reference, "\(pattern.debugDescription) on \(id.debugDescription): fnmatch says \(reference)")
        }
    }

    @Test("hand-picked cases: whole-id matching, sets, ranges, escapes, characters beyond ASCII")
    func examples() throws {
        let cases: [(String, String, Bool)] = [
            ("exam-*", "exam-1", true), ("exam-*", "xexam-1", false), ("exam-?", "exam-10", false),
            ("exam-?", "exam-é", true), ("*", "", true), ("", "", true), ("", "a", false),
            ("[a-c]x", "bx", true), ("[!a-c]x", "bx", false), ("[]]", "]", true), ("a\\*", "a*", true),
            ("a\\*", "ab", false), ("*a*a*a*b", String(repeating: "a", count: 5000), false), ("x/*", "x/y/z", true),
        ]
        for (pattern, id, expected) in cases {
            #expect(try IDPattern(pattern).matches(id) == expected, "\(pattern) on \(id.prefix(20))")
        }
        #expect(throws: IDPatternError.self) { try IDPattern("[a") }
        #expect(throws: IDPatternError.self) { try IDPattern("[z-a]") }
        #expect(throws: IDPatternError.self) { try IDPattern("exam\\") }
        // fnmatch reads [. .] (a collating symbol) inside a set; cdscript refuses it rather than read it otherwise.
        #expect(throws: IDPatternError.self) { try IDPattern("[a[.]") }
        #expect(try IDPattern("[a\\[.]").matches("["))
        #expect(fnmatch("\\", "\\", 0) != 0, "fnmatch matches nothing with a final backslash either")
    }
}
