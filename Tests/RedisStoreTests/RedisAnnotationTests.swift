import CountdownCore
@testable import RedisStore
import Testing

private let s = Time.nanosecondsPerSecond

/// Issue 49: a title and end-action names in tagged fields after the 8th, only on
/// records that have them, so every other record stays what older builds read.
@Suite("The Redis record keeps a title and end actions in tagged fields")
struct RedisAnnotationTests {
    static func record(title: String?, actions: [String], overtime: Bool = false) -> StoredCountdown {
        StoredCountdown(id: "x", state: .running, kind: .duration, wallDeadline: 100 * s, every: s, total: 60 * s,
                        bootID: nil, bootDeadline: nil, updatedAt: 40 * s, overtime: overtime, title: title, actions: actions)
    }

    @Test("a record without them has the 8 fields older builds write; with them, the tags follow in order")
    func encoding() {
        #expect(RedisRecord.encode(Self.record(title: nil, actions: [])) == "1|running|duration|100000000000||1000000000|60000000000|40000000000")
        #expect(RedisRecord.encode(Self.record(title: "Tea", actions: ["notify", "log"], overtime: true))
                == "1|running|duration|100000000000||1000000000|60000000000|40000000000|overtime|title=Tea|actions=notify,log")
        #expect(RedisRecord.encode(Self.record(title: nil, actions: ["bell"])).hasSuffix("|40000000000|actions=bell"))
    }

    @Test("titles with the separator and the escape character, and every other text, read back as written",
          arguments: ["a|b", "%", "%7C", "100% | done |", "||", "%25|%", "<b>\"x\"</b>", "名前 🍅", ""])
    func titlesRoundTrip(title: String) throws {
        let record = Self.record(title: title, actions: ["log"])
        let text = RedisRecord.encode(record)
        #expect(text.split(separator: "|", omittingEmptySubsequences: false).count == 10, "\(text)")
        #expect(try RedisRecord.read(id: "x", text) == record)
    }

    @Test("a tag out of order, twice, unknown, or a title escape that is not %25 or %7C is named as a bad record", arguments: [
        "1|running|duration|0||1000000000|60000000000|0|actions=log|title=x",
        "1|running|duration|0||1000000000|60000000000|0|title=a|title=b",
        "1|running|duration|0||1000000000|60000000000|0|command=rm",
        "1|running|duration|0||1000000000|60000000000|0|title=50%",
        "1|running|duration|0||1000000000|60000000000|0|title=%41",
        "1|running|duration|0||1000000000|60000000000|0|actions=rm -rf",
        "1|running|duration|0||1000000000|60000000000|0|overtime|title=a|actions=b|more",
    ])
    func badTags(value: String) {
        #expect(throws: StoredValueError.self) { _ = try RedisRecord.read(id: "x", value) }
    }
}
