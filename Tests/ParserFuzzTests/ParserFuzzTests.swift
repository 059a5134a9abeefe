import CountdownCore
import Foundation
import PropertyBased
import Testing

/// Fuzzing of the two parsers that read script text: format patterns and `at`
/// deadlines. Random input must give a value or a typed error, never a crash, a
/// hang or an out-of-range result; inputs built from the grammar must parse.
@Suite("Parsers survive random input")
struct ParserFuzzTests {
    /// Characters that matter to the grammars, plus noise (multi-byte, control, NUL).
    static let patternAlphabet: [Character] = Array("{}{}{}dhHmMsSt:.-+ 0123456789xyZ\u{0}\u{7}é🙂\n")
    static let deadlineAlphabet: [Character] = Array("0123456789-:T+Z.  zt+-WUTC/ä\u{0}\n")
    static let tokens = ["{d}", "{h}", "{hh}", "{H}", "{m}", "{mm}", "{M}", "{s}", "{ss}", "{S}", "{t}", "{{", "}}", "x", ":", " "]

    static let wallNow: Nanoseconds = 1_798_761_600 * 1_000_000_000

    /// CDSCRIPT_FUZZ_SCALE=N runs N times as many cases (CI runs the default, 1).
    static let scale = max(1, Int(ProcessInfo.processInfo.environment["CDSCRIPT_FUZZ_SCALE"] ?? "") ?? 1)

    @Test("a random pattern parses or throws a FormatPatternError, and renders any duration")
    func randomPatterns() async {
        await propertyCheck(count: 3000 * Self.scale, input: Gen.int(in: 0...(Self.patternAlphabet.count - 1)).array(of: 0...40), Gen.int64(in: -1...400_000_000_000_000)) { indices, duration in
            let text = String(indices.map { Self.patternAlphabet[$0] })
            do {
                let pattern = try FormatPattern(text)
                _ = pattern.render(duration)
            } catch {
                #expect(error is FormatPatternError && !"\(error)".isEmpty)
            }
        }
    }

    @Test("a pattern made of tokens and literals always parses, and renders no stray brace")
    func grammaticalPatterns() async {
        await propertyCheck(count: 2000 * Self.scale, input: Gen.int(in: 0...(Self.tokens.count - 1)).array(of: 0...12), Gen.int64(in: 0...400_000_000_000_000)) { indices, duration in
            let pieces = indices.map { Self.tokens[$0] }
            let text = pieces.joined()
            let pattern: FormatPattern
            do {
                pattern = try FormatPattern(text)
            } catch {
                Issue.record("\(text.debugDescription) did not parse: \(error)")
                return
            }
            let rendered = pattern.render(duration)
            // Tokens become digits; only escaped braces leave braces behind.
            let braces = pieces.filter { $0 == "{{" || $0 == "}}" }.count
            #expect(rendered.filter { $0 == "{" || $0 == "}" }.count == braces, "\(text.debugDescription) rendered \(rendered.debugDescription)")
        }
    }

    @Test("random deadline text parses to an instant or throws a DeadlineParseError")
    func randomDeadlines() async {
        let zone = TimeZone(secondsFromGMT: 8 * 3600)!
        await propertyCheck(count: 3000 * Self.scale, input: Gen.int(in: 0...(Self.deadlineAlphabet.count - 1)).array(of: 0...32)) { indices in
            let text = String(indices.map { Self.deadlineAlphabet[$0] })
            do {
                _ = try DeadlineParser.parse(text, wallNow: Self.wallNow, timeZone: zone)
            } catch {
                #expect(error is DeadlineParseError && !"\(error)".isEmpty)
            }
        }
    }

    static let deadlineSeeds = ["2026-12-01T20:00:00+08:00", "2026-12-01 20:00Z", "20:00", "20:00:30", "2026-12-01T07:00:00-0330", "2027-02-28T23:59:59.999Z"]

    @Test("valid deadlines with random edits parse to an instant or throw a DeadlineParseError")
    func mutatedDeadlines() async {
        let zone = TimeZone(secondsFromGMT: 3 * 3600)!
        let edits = Gen.int(in: 0...2).array(of: 1...4)
        await propertyCheck(count: 3000 * Self.scale, input: Gen.int(in: 0...(Self.deadlineSeeds.count - 1)), edits, Gen.int(in: 0...10_000).array(of: 8)) { seed, kinds, numbers in
            var chars = Array(Self.deadlineSeeds[seed])
            for (i, kind) in kinds.enumerated() {
                let position = numbers[i] % (chars.count + 1)
                let replacement = Self.deadlineAlphabet[numbers[i + 4] % Self.deadlineAlphabet.count]
                switch kind {
                case 0 where position < chars.count: chars[position] = replacement
                case 1: chars.insert(replacement, at: position)
                default: if position < chars.count { chars.remove(at: position) }
                }
            }
            do {
                _ = try DeadlineParser.parse(String(chars), wallNow: Self.wallNow, timeZone: zone)
            } catch {
                #expect(error is DeadlineParseError && !"\(error)".isEmpty)
            }
        }
    }

    @Test("any valid clock time HH:MM lands within the next 24 hours")
    func clockTimes() async {
        let zone = TimeZone(secondsFromGMT: -5 * 3600)!
        await propertyCheck(count: 1500 * Self.scale, input: Gen.int(in: 0...23), Gen.int(in: 0...59), Gen.int64(in: 0...4_000_000_000)) { hour, minute, offsetSeconds in
            let now = Self.wallNow + offsetSeconds * 1_000_000_000
            let text = String(format: "%02d:%02d", hour, minute)
            do {
                let instant = try DeadlineParser.parse(text, wallNow: now, timeZone: zone)
                #expect(instant > now - 1_000_000_000 && instant <= now + 86_400 * 1_000_000_000, "\(text) at \(now) gave \(instant)")
            } catch {
                Issue.record("\(text) did not parse: \(error)")
            }
        }
    }

    @Test("any valid ISO 8601 date with an offset parses to exactly that instant")
    func isoDates() async {
        await propertyCheck(
            count: 1500 * Self.scale,
            input: Gen.int(in: 1971...2099), Gen.int(in: 1...12), Gen.int(in: 1...28), Gen.int(in: 0...23), Gen.int(in: 0...59), Gen.int(in: 0...59), Gen.int(in: -12...14)
        ) { year, month, day, hour, minute, second, offset in
            let sign = offset < 0 ? "-" : "+"
            let text = String(format: "%04d-%02d-%02dT%02d:%02d:%02d%@%02d:00", year, month, day, hour, minute, second, sign, abs(offset))
            var components = DateComponents()
            (components.year, components.month, components.day) = (year, month, day)
            (components.hour, components.minute, components.second) = (hour, minute, second)
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(secondsFromGMT: offset * 3600)!
            let expected = Nanoseconds(calendar.date(from: components)!.timeIntervalSince1970) * 1_000_000_000
            do {
                let instant = try DeadlineParser.parse(text, wallNow: Self.wallNow, timeZone: TimeZone.gmt)
                #expect(instant == expected, "\(text)")
            } catch {
                Issue.record("\(text) did not parse: \(error)")
            }
        }
    }
}
