import CountdownCore
import Foundation
import Testing

private let longest = CountdownRange.longestDuration

/// One range for every store (`CountdownRange`): what it allows is kept, what it
/// does not is never written.
@Suite("Every store keeps every value the range allows and writes nothing beyond it")
struct RangeConformanceTests {
    @Test("the extremes round-trip: the longest countdown from now, a deadline near the latest instant, appends up to the bound, a paused one", arguments: StoreKind.allCases)
    func extremesRoundTrip(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        let store = fixture.store
        let t = fixture.now
        var latest = fixture.started("latest", s, at: t, kind: .wall)
        // A second of room: Redis moves instants by its clock offset's error.
        latest.wallDeadline = CountdownRange.latestInstant - s
        var paused = fixture.started("paused", longest, at: t)
        #expect(did { paused.pause(at: t) })
        let records = [fixture.started("longest", longest, at: t), latest, paused]
        try store.saveAll(records)
        try store.save(fixture.started("grown", 60 * s, at: t))
        // Appends as `cdscript append` makes them, up to a second short of the bound
        // (the offset's error moves the time left by as much).
        let target = longest - s
        for _ in 0..<4 {
            try store.modify(id: "grown") { record in
                guard var r = record else { return }
                let step = min(longest / 4, target - r.total)
                #expect(r.appendRefusal(step, at: t) == nil)
                #expect(did { r.append(step, at: t) })
                record = r
            }
        }
        let refusal = try store.modify(id: "grown") { $0?.appendRefusal(2 * s, at: t) }
        #expect((refusal ?? nil)?.contains(CountdownRange.longestText) == true)

        // Read back by another handle, as another process would.
        let listing = try fixture.another().listing()
        #expect(listing.unreadable.isEmpty, "\(listing.unreadable)")
        #expect(listing.countdowns.map(\.id) == ["grown", "latest", "longest", "paused"])
        let byID = Dictionary(uniqueKeysWithValues: listing.countdowns.map { ($0.id, $0) })
        #expect(byID["grown"]?.total == target)
        for record in records { #expect(fixture.same(byID[record.id], record), "\(record.id)") }
    }

    @Test("a record beyond the range is never written, by save or modify; the error names the field", arguments: StoreKind.allCases)
    func beyondNotWritten(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        let store = fixture.store
        let t = fixture.now
        var late = fixture.started("late", s, at: t, kind: .wall)
        late.wallDeadline = CountdownRange.latestInstant + s
        #expect {
            try store.save(late)
        } throws: { "\($0)".contains("wall_deadline") }
        #expect(try store.load(id: "late") == nil)
        try store.save(fixture.started("ok", s, at: t))
        #expect {
            try store.modify(id: "ok") { $0?.total = longest + 1 }
        } throws: { "\($0)".contains("total") }
        #expect(try store.load(id: "ok")?.total == s)
        var many = [fixture.started("fine", s, at: t), late]
        many[1].id = "late2"
        #expect(throws: (any Error).self) { try store.saveAll(many) }
        #expect(try store.load(id: "late2") == nil)
    }
}
