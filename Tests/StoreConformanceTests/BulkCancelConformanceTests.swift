import CountdownCore
import Foundation
import Testing

/// Removing many countdowns at once (`cancel --all`, `--match`, `countdown.cancel_all()`;
/// issue 53), on every store: the same result as one `delete` per id, in slices.
@Suite("Every store removes many countdowns at once, by id list or by id pattern")
struct BulkCancelConformanceTests {
    @Test("deleteAll removes the ids stored, across slices, returns them in the order given and skips the ids that are not stored", arguments: StoreKind.allCases)
    func deleteAll(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        let store = fixture.store
        // More than one slice, and ids given out of order, some twice, some never stored.
        let count = deleteSlice + 250
        try store.saveAll((0..<count).map { fixture.started("c\($0)", 600 * s, at: fixture.now) })
        let wanted = (0..<count).reversed().map { "c\($0)" } + ["missing", "c0"]
        let removed = try store.deleteAll(ids: wanted)
        #expect(removed == (0..<count).reversed().map { "c\($0)" }, "each stored id once, in the order given")
        #expect(try store.list().isEmpty)
        #expect(try store.deleteAll(ids: []) == [])
        #expect(try fixture.another().deleteAll(ids: ["c1"]) == [], "another handle sees them gone")
    }

    @Test("cancelAll(matching:) removes the ids a pattern matches, unreadable records among them, and keeps the rest; nil matches every id", arguments: StoreKind.allCases)
    func cancelMatching(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        let store = fixture.store
        let ids = ["exam-1", "exam-2", "exam-10", "exam*", "Exam-3", "tea", "exam-é"]
        try store.saveAll(ids.map { fixture.started($0, 600 * s, at: fixture.now) })
        let planted = try kind != .inMemory && fixture.plantUnreadable(id: "exam-bad")
        let removed = try store.cancelAll(matching: try IDPattern("exam-?"))
        #expect(Set(removed) == ["exam-1", "exam-2", "exam-é"])
        let literal = try store.cancelAll(matching: try IDPattern("exam\\*"))
        #expect(literal == ["exam*"])
        let more = try store.cancelAll(matching: try IDPattern("exam-*"))
        #expect(Set(more) == Set(["exam-10"] + (planted ? ["exam-bad"] : [])))
        #expect(try store.list().map(\.id).sorted() == ["Exam-3", "tea"])
        #expect(Set(try store.cancelAll(matching: nil)) == ["Exam-3", "tea"])
        #expect(try store.listing().countdowns.isEmpty && store.listing().unreadable.isEmpty)
    }
}
