import CountdownCore
import Testing

@Suite("A stored countdown's title and end-action names are held to their limits")
struct CountdownAnnotationsTests {
    @Test("a title of up to 256 characters, one line, is accepted; a longer one or one with control characters is refused")
    func titles() {
        #expect(CountdownAnnotations.titleRefusal("Green tea") == nil)
        #expect(CountdownAnnotations.titleRefusal(String(repeating: "名", count: 256)) == nil)
        #expect(CountdownAnnotations.titleRefusal(String(repeating: "e\u{301}", count: 256)) == nil, "counted in characters")
        #expect(CountdownAnnotations.titleRefusal(String(repeating: "x", count: 257))?.contains("at most 256") == true)
        for bad in ["two\nlines", "tab\there", "esc\u{1B}[2J", "nul\u{0}", "c1\u{9B}"] {
            #expect(CountdownAnnotations.titleRefusal(bad)?.contains("control characters") == true, "\(bad.debugDescription)")
        }
    }

    @Test("action names are 1 to 64 of A-Z a-z 0-9 _ . -; at most 16, none twice")
    func actionNames() {
        #expect(CountdownAnnotations.actionsRefusal([]) == nil)
        #expect(CountdownAnnotations.actionsRefusal(["notify", "bell", "log", "my.hook-2_x", String(repeating: "a", count: 64)]) == nil)
        for bad in ["", "rm -rf /", "a;b", "a,b", "é", String(repeating: "a", count: 65), "$(id)", "a/b"] {
            let refusal = CountdownAnnotations.actionsRefusal([bad])
            #expect(refusal?.contains("an action name is 1 to 64 of") == true, "\(bad.debugDescription): \(refusal ?? "accepted")")
        }
        #expect(CountdownAnnotations.actionsRefusal((0..<16).map { "a\($0)" }) == nil)
        #expect(CountdownAnnotations.actionsRefusal((0..<17).map { "a\($0)" })?.contains("at most 16 actions") == true)
        #expect(CountdownAnnotations.actionsRefusal(["log", "log"])?.contains("named twice") == true)
    }

    @Test("the stored form of the actions splits back into the same list")
    func actionsRoundTrip() {
        for list in [[], ["notify"], ["a", "b.c", "d-e_f"]] {
            #expect(CountdownAnnotations.decodeActions(CountdownAnnotations.encodeActions(list)) == list)
        }
    }

    @Test("both stores' range check refuses a record whose title or actions are outside the limits, naming the field")
    func rangeCheck() {
        var record = StoredCountdown(id: "x", state: .running, kind: .duration, wallDeadline: 0, every: 1_000_000_000, total: 1,
                                     bootID: nil, bootDeadline: nil, updatedAt: 0, title: "fine", actions: ["log"])
        #expect(throws: Never.self) { try CountdownRange.check(record) }
        record.title = "a\nb"
        #expect { try CountdownRange.check(record) } throws: { ($0 as? StoredValueError)?.field == "title" }
        record.title = nil
        record.actions = ["no way"]
        #expect { try CountdownRange.check(record) } throws: { ($0 as? StoredValueError)?.field == "actions" }
    }
}
