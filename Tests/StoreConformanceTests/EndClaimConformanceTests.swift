import CountdownCore
import Foundation
import Testing

/// The rules of `EndClaiming`, on every store, with two handles as two processes.
@Suite("Every store hands each end to one process, and a lease hands it over")
struct EndClaimConformanceTests {
    static let lease: Nanoseconds = 10 * s

    @Test("the first claim of an end wins; the others see it held for the rest of the lease, then done once marked", arguments: StoreKind.allCases)
    func oneWinner(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        let a = fixture.store, b = try fixture.another()
        let t = fixture.now
        let end = t.wall
        let won = try a.claimEnd(id: "x", end: end, owner: "A", lease: Self.lease, now: t)
        #expect(won == .won(EndClaim(id: "x", end: end, token: 1)))
        guard case .won(let claim) = won else { return }
        // A copy that saw the end 3 ms later names the same end.
        let held = try b.claimEnd(id: "x", end: end + 3_000_000, owner: "B", lease: Self.lease, now: t)
        guard case .held(let left) = held else { Issue.record("\(held)"); return }
        #expect(left > Self.lease - s && left <= Self.lease)
        #expect(try a.renewEndClaim(claim, owner: "A", lease: Self.lease, now: t))
        #expect(try !b.renewEndClaim(claim, owner: "B", lease: Self.lease, now: t), "only its owner renews a claim")
        #expect(try !b.finishEndClaim(claim, owner: "B", now: t), "only its owner marks it done")
        #expect(try a.finishEndClaim(claim, owner: "A", now: t))
        #expect(try b.claimEnd(id: "x", end: end, owner: "B", lease: Self.lease, now: t) == .done)
        #expect(try a.claimEnd(id: "x", end: end, owner: "A", lease: Self.lease, now: t) == .done)
        #expect(try !a.finishEndClaim(claim, owner: "A", now: t), "done once")
    }

    @Test("a lease that passes unmarked hands the end to the next claimant with a larger token; the first can no longer renew or mark it", arguments: StoreKind.allCases)
    func takeover(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        let a = fixture.store, b = try fixture.another()
        let t = fixture.now
        let lease = 2 * EndClaimRules.shortestLease
        let first = try a.claimEnd(id: "y", end: t.wall, owner: "A", lease: lease, now: t)
        guard case .won(let firstClaim) = first else { Issue.record("\(first)"); return }
        // Claimed again until the lease has passed (on Redis, on its server's clock).
        var later = t
        var outcome = try b.claimEnd(id: "y", end: t.wall, owner: "B", lease: Self.lease, now: later)
        var tries = 0
        while case .held = outcome, tries < 1_000 {
            later = fixture.instant(lease / 4, after: later)
            outcome = try b.claimEnd(id: "y", end: t.wall, owner: "B", lease: Self.lease, now: later)
            tries += 1
        }
        #expect(outcome == .won(EndClaim(id: "y", end: t.wall, token: firstClaim.token + 1)))
        #expect(try !a.renewEndClaim(firstClaim, owner: "A", lease: Self.lease, now: later))
        #expect(try !a.finishEndClaim(firstClaim, owner: "A", now: later))
        guard case .won(let taken) = outcome else { return }
        #expect(try b.finishEndClaim(taken, owner: "B", now: later))
    }

    @Test("a later end of the same countdown is a new claim and the token keeps growing; an earlier one is done; ids claim apart", arguments: StoreKind.allCases)
    func laterEnd(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        let a = fixture.store, b = try fixture.another()
        let t = fixture.now
        let end = t.wall
        guard case .won(let first) = try a.claimEnd(id: "x", end: end, owner: "A", lease: Self.lease, now: t) else {
            Issue.record("no claim"); return
        }
        #expect(try a.finishEndClaim(first, owner: "A", now: t))
        let next = try b.claimEnd(id: "x", end: end + s, owner: "B", lease: Self.lease, now: t)
        #expect(next == .won(EndClaim(id: "x", end: end + s, token: 2)))
        // A late copy of the first end does not claim it again.
        #expect(try a.claimEnd(id: "x", end: end, owner: "A", lease: Self.lease, now: t) == .done)
        #expect(try a.claimEnd(id: "y", end: end, owner: "A", lease: Self.lease, now: t) == .won(EndClaim(id: "y", end: end, token: 1)))
    }

    @Test("recordEndAndClaim stores the finished record and claims its end; another process recording the same end finds it held", arguments: StoreKind.allCases)
    func recordAndClaim(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        let a = fixture.store, b = try fixture.another()
        let startedAt = instant(60, before: fixture.now)
        try a.save(fixture.started("x", 60 * s, at: startedAt))
        let t = fixture.now
        let (end, outcome) = try a.recordEndAndClaim(id: "x", record: { _ = $0?.finish(at: t, tolerance: s) }, fallbackEnd: 0,
                                                     owner: "A", lease: Self.lease, now: t)
        let stored = try #require(try b.load(id: "x"))
        #expect(stored.state == .finished)
        #expect(abs(end - stored.wallDeadline) <= fixture.instantTolerance)
        #expect(outcome == .won(EndClaim(id: "x", end: end, token: 1)))
        let (again, held) = try b.recordEndAndClaim(id: "x", record: { _ = $0?.finish(at: t, tolerance: s) }, fallbackEnd: 0,
                                                    owner: "B", lease: Self.lease, now: t)
        #expect(abs(again - end) < EndClaimRules.sameEnd)
        guard case .held = held else { Issue.record("\(held)"); return }
        // Nothing stored: the end is the fallback.
        let (fallback, gone) = try b.recordEndAndClaim(id: "none", record: nil, fallbackEnd: t.wall, owner: "B", lease: Self.lease, now: t)
        #expect(fallback == t.wall && gone == .won(EndClaim(id: "none", end: t.wall, token: 1)))
    }
}
