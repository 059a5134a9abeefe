import CountdownCore
import Foundation
import PropertyBased
import Testing

/// Fuzzing of the duration grammar that `cdscript timer` and `seconds = "25m"` share.
@Suite("The duration parser survives random input")
struct DurationFuzzTests {
    static let alphabet: [Character] = Array("0123456789dhms.  :-xDH\u{0}é")

    @Test("random text parses to a duration in range or throws a DeadlineParseError")
    func randomText() async {
        await propertyCheck(count: 3000 * ParserFuzzTests.scale, input: Gen.int(in: 0...(Self.alphabet.count - 1)).array(of: 0...24)) { indices in
            let text = String(indices.map { Self.alphabet[$0] })
            do {
                let ns = try DeadlineParser.parseDuration(text)
                #expect(ns >= 0 && ns <= Time.maximumDuration, "\(text.debugDescription) gave \(ns)")
            } catch {
                #expect(!"\(error)".isEmpty)
            }
        }
    }

    @Test("parts built from the grammar parse to their exact sum")
    func grammatical() async {
        let units: [(String, Int64)] = [("d", 86_400), ("h", 3600), ("m", 60), ("s", 1)]
        await propertyCheck(count: 3000 * ParserFuzzTests.scale, input: Gen.int(in: -1...9_999).array(of: 4), Gen.int(in: -1...999).array(of: 4), Gen.bool) { wholes, tenths, spaced in
            var text = ""
            var expected: Nanoseconds = 0
            for (i, unit) in units.enumerated() where wholes[i] >= 0 {
                let fraction = tenths[i] >= 0 ? tenths[i] : 0
                text += "\(wholes[i])" + (tenths[i] >= 0 ? String(format: ".%03d", tenths[i]) : "") + unit.0 + (spaced ? " " : "")
                expected += Int64(wholes[i]) * unit.1 * Time.nanosecondsPerSecond + Int64(fraction) * unit.1 * 1_000_000
            }
            guard !text.isEmpty else { return }
            #expect((try? DeadlineParser.parseDuration(text)) == expected, "\(text.debugDescription)")
        }
    }

    @Test("a whole number of seconds reads as that many seconds")
    func bareSeconds() async {
        await propertyCheck(count: 1000 * ParserFuzzTests.scale, input: Gen.int64(in: 0...9_999_999)) { seconds in
            #expect((try? DeadlineParser.parseDuration("\(seconds)")) == seconds * Time.nanosecondsPerSecond)
        }
    }
}
