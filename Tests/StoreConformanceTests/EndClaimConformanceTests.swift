import CountdownCore
import Foundation
import Testing

/// The rules of `EndClaiming`, on every store, with two handles as two processes.
@Suite("Every store hands each end to one process, and a lease hands it over")
struct EndClaimConformanceTests {
    static let lease: Nanoseconds = 10 * s

    /// Stores "id" as a countdown that ended just now, as the first process to see its end records it.
    static func ended(_ fixture: StoreFixture, _ id: String, claimant: StoreFixture.Store, owner: String = "A",
                      lease: Nanoseconds = lease) throws -> EndClaimOutcome {
        let t = fixture.now
        try claimant.save(fixture.started(id, 60 * s, at: instant(60, before: t)))
        return try claimant.recordEndAndClaim(id: id, record: { _ = $0?.finish(at: t, tolerance: s) }, owner: owner, lease: lease, now: t)
    }

    @Test("the first claim of an end wins; the others see it held for the rest of the lease, then done once marked", arguments: StoreKind.allCases)
    func oneWinner(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        let a = fixture.store, b = try fixture.another()
        guard case .won(let claim) = try Self.ended(fixture, "x", claimant: a) else { Issue.record("no claim"); return }
        let t = fixture.now
        #expect(claim.id == "x" && claim.token > 0)
        let held = try b.claimEnd(id: "x", expected: nil, owner: "B", lease: Self.lease, now: t)
        guard case .held(let left, let name) = held else { Issue.record("\(held)"); return }
        #expect(name == claim.name)
        #expect(left > Self.lease - s && left <= Self.lease)
        #expect(try a.renewEndClaim(claim, owner: "A", lease: Self.lease, now: t))
        #expect(try !b.renewEndClaim(claim, owner: "B", lease: Self.lease, now: t), "only its owner renews a claim")
        #expect(try !b.finishEndClaim(claim, owner: "B", now: t), "only its owner marks it done")
        #expect(try a.finishEndClaim(claim, owner: "A", now: t))
        #expect(try b.claimEnd(id: "x", expected: nil, owner: "B", lease: Self.lease, now: t) == .done)
        #expect(try a.claimEnd(id: "x", expected: claim.name, owner: "A", lease: Self.lease, now: t) == .done)
        #expect(try !a.finishEndClaim(claim, owner: "A", now: t), "done once")
    }

    @Test("the claimant's exit status is kept with the done mark: every later claim of that end is told it; a later end starts without one", arguments: StoreKind.allCases)
    func statusSharedWithDone(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        let a = fixture.store, b = try fixture.another()
        guard case .won(let claim) = try Self.ended(fixture, "x", claimant: a) else { Issue.record("no claim"); return }
        let t = fixture.now
        #expect(try !b.finishEndClaim(claim, owner: "B", status: 9, now: t), "only its owner marks it done")
        #expect(try a.finishEndClaim(claim, owner: "A", status: 3, now: t))
        #expect(try b.claimEnd(id: "x", expected: nil, owner: "B", lease: Self.lease, now: t) == .ranWith(status: 3))
        #expect(try b.claimEnd(id: "x", expected: claim.name, owner: "B", lease: Self.lease, now: t) == .ranWith(status: 3))
        let late = try b.recordEndAndClaim(id: "x", record: { _ = $0?.finish(at: t, tolerance: s) }, owner: "B", lease: Self.lease, now: t)
        #expect(late == .ranWith(status: 3), "a process that comes to the end after its action ran")
        usleep(2_000)
        guard case .won(let next) = try Self.ended(fixture, "x", claimant: b, owner: "B") else { Issue.record("no second claim"); return }
        #expect(try a.claimEnd(id: "x", expected: next.name, owner: "A", lease: Self.lease, now: t) != .ranWith(status: 3),
                "the status belongs to the end it was recorded with")
        #expect(try b.finishEndClaim(next, owner: "B", now: t))
        #expect(try a.claimEnd(id: "x", expected: next.name, owner: "A", lease: Self.lease, now: t) == .done, "no status given, none told")
    }

    @Test("a claimant whose wall clock is a minute off names the same end and finds it held", arguments: StoreKind.allCases)
    func skewedClaimant(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        let a = fixture.store, b = try fixture.another()
        guard case .won(let claim) = try Self.ended(fixture, "x", claimant: a) else { Issue.record("no claim"); return }
        for skew in [-60 * s, -2 * s, 2 * s, 60 * s] {
            var t = fixture.now
            t.wall += skew
            let outcome = try b.recordEndAndClaim(id: "x", record: { _ = $0?.finish(at: t, tolerance: s) }, owner: "B", lease: Self.lease, now: t)
            guard case .held(_, let name) = outcome else { Issue.record("wall clock \(skew / s) s off: \(outcome)"); continue }
            #expect(name == claim.name)
        }
        #expect(try a.finishEndClaim(claim, owner: "A", now: fixture.now), "the honest claimant keeps its claim")
    }

    @Test("a lease that passes unmarked hands the end to the next claimant with a larger token; the first can no longer renew or mark it", arguments: StoreKind.allCases)
    func takeover(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        let a = fixture.store, b = try fixture.another()
        let t = fixture.now
        let lease = 2 * EndClaimRules.shortestLease
        guard case .won(let firstClaim) = try Self.ended(fixture, "y", claimant: a, lease: lease) else { Issue.record("no claim"); return }
        // Claimed again until the lease has passed (on Redis, on its server's clock).
        var later = t
        var outcome = try b.claimEnd(id: "y", expected: firstClaim.name, owner: "B", lease: Self.lease, now: later)
        var tries = 0
        while case .held = outcome, tries < 1_000 {
            later = fixture.instant(lease / 4, after: later)
            outcome = try b.claimEnd(id: "y", expected: firstClaim.name, owner: "B", lease: Self.lease, now: later)
            tries += 1
        }
        #expect(outcome == .won(EndClaim(id: "y", name: firstClaim.name, token: firstClaim.token + 1)))
        #expect(try !a.renewEndClaim(firstClaim, owner: "A", lease: Self.lease, now: later))
        #expect(try !a.finishEndClaim(firstClaim, owner: "A", now: later))
        guard case .won(let taken) = outcome else { return }
        #expect(try b.finishEndClaim(taken, owner: "B", now: later))
    }

    @Test("a later end of the same countdown is a new claim and the token keeps growing; a waiter on the earlier one finds it over; ids claim apart", arguments: StoreKind.allCases)
    func laterEnd(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        let a = fixture.store, b = try fixture.another()
        let t = fixture.now
        guard case .won(let first) = try Self.ended(fixture, "x", claimant: a) else { Issue.record("no claim"); return }
        #expect(try a.finishEndClaim(first, owner: "A", now: t))
        usleep(2_000)
        guard case .won(let next) = try Self.ended(fixture, "x", claimant: b, owner: "B") else { Issue.record("no second claim"); return }
        #expect(next.name != first.name)
        #expect(next.token == first.token + 1)
        // A late waiter on the first end does not claim it again, nor the second for it.
        #expect(try a.claimEnd(id: "x", expected: first.name, owner: "A", lease: Self.lease, now: t) == .done)
        guard case .won(let other) = try Self.ended(fixture, "y", claimant: a) else { Issue.record("no claim of y"); return }
        #expect(other.id == "y")
    }

    @Test("recordEndAndClaim stores the finished record and claims its end; with nothing finished stored there is no end to claim", arguments: StoreKind.allCases)
    func recordAndClaim(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        let a = fixture.store, b = try fixture.another()
        guard case .won(let claim) = try Self.ended(fixture, "x", claimant: a) else { Issue.record("no claim"); return }
        let stored = try #require(try b.load(id: "x"))
        #expect(stored.state == .finished)
        #expect(abs(claim.name.deadline - stored.wallDeadline) <= fixture.instantTolerance)
        let t = fixture.now
        #expect(try b.recordEndAndClaim(id: "none", record: nil, owner: "B", lease: Self.lease, now: t) == .done)
        try b.save(fixture.started("running", 60 * s, at: t))
        #expect(try b.claimEnd(id: "running", expected: nil, owner: "B", lease: Self.lease, now: t) == .done)
    }
}
