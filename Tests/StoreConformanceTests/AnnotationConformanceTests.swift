import CountdownCore
import Foundation
import Testing

/// Issue 49: a stored countdown's title and end-action names are kept by every
/// store, through every change that rewrites the record, and its end is claimed
/// as any other.
@Suite("Every store keeps a countdown's title and end actions")
struct AnnotationConformanceTests {
    /// Titles with the characters a store might give a meaning: the Redis record's
    /// separator and escape, quotes, markup, wide and combining characters.
    static let titles = ["Green tea", "a|b", "100% |%7C| done%", "<script>alert(1)</script>", "\"q\" \\ '", "名前 🍅 e\u{301}",
                         String(repeating: "x", count: CountdownAnnotations.longestTitle), ""]

    @Test("a title and actions are read back as saved, and kept by append, pause, resume and the end", arguments: StoreKind.allCases)
    func keptThroughChanges(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        let store = fixture.store
        let t = fixture.now
        for (index, title) in Self.titles.enumerated() {
            var record = fixture.started("c\(index)", 60 * s, at: t)
            record.title = title
            record.actions = Array(["notify", "log", "bell.2", "A-z_9"].prefix(index % 5))
            try store.save(record)
            #expect(fixture.same(try store.load(id: record.id), record), "\(title)")
        }
        let id = "c1"
        let kept = try #require(try store.load(id: id))
        try store.modify(id: id) { _ = $0?.append(5 * s, at: t) }
        try store.modify(id: id) { _ = $0?.pause(at: t) }
        try store.modify(id: id) { _ = $0?.resume(at: t) }
        try store.modify(id: id) { _ = $0?.append(-70 * s, at: t) }
        let after = try #require(try store.load(id: id))
        #expect(after.state == .finished)
        #expect(after.title == kept.title && after.actions == kept.actions)
        #expect(try store.list().map(\.title) == Self.titles.map(Optional.some))
    }

    @Test("a countdown without them reads back with no title and no actions", arguments: StoreKind.allCases)
    func noneByDefault(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        try fixture.store.save(fixture.started("plain", 60 * s, at: fixture.now))
        let read = try #require(try fixture.store.load(id: "plain"))
        #expect(read.title == nil && read.actions.isEmpty)
    }

    @Test("a record outside the limits is refused by save and nothing is stored", arguments: StoreKind.allCases)
    func limitsRefusedBySave(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        var record = fixture.started("x", 60 * s, at: fixture.now)
        record.title = String(repeating: "x", count: CountdownAnnotations.longestTitle + 1)
        #expect(throws: (any Error).self) { try fixture.store.save(record) }
        record.title = "ok"
        record.actions = ["rm -rf /"]
        #expect(throws: (any Error).self) { try fixture.store.save(record) }
        #expect(try fixture.store.load(id: "x") == nil)
    }

    @Test("the end of a countdown with a title and actions is claimed once, as any other", arguments: StoreKind.allCases)
    func endClaimed(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        let t = fixture.now
        var record = fixture.started("x", 1 * s, at: t)
        record.title = "a|b%"
        record.actions = ["notify"]
        try fixture.store.save(record)
        let end = fixture.instant(2 * s, after: t)
        let first = try fixture.store.recordEndAndClaim(id: "x", record: { _ = $0?.finish(at: end, tolerance: s) },
                                                       owner: "A", lease: 10 * s, now: end)
        guard case .won = first else {
            Issue.record("the first claim of the end: \(first)")
            return
        }
        let other = try fixture.another()
        let second = try other.claimEnd(id: "x", expected: nil, owner: "B", lease: 10 * s, now: end)
        guard case .held = second else {
            Issue.record("a second claimant: \(second), expected held")
            return
        }
    }
}
