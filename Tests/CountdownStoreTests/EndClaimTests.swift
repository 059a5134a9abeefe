import CountdownCore
import CountdownStore
import Foundation
import GRDB
import Testing

private let s = Time.nanosecondsPerSecond

private func at(_ seconds: Double) -> StoreInstant {
    StoreInstant(boot: Nanoseconds(seconds * 1e9), wall: 1_000_000 * s + Nanoseconds(seconds * 1e9), bootID: "A")
}

/// The rules every store applies to an end claim, checked on the SQLite store
/// (two connections, as two processes) and the in-memory one.
@Suite("End claims: one process wins each end, a lease hands it over")
struct EndClaimTests {
    static func stores() -> [(EndClaiming, EndClaiming)] {
        let dir = temporaryDirectory()
        let memory = InMemoryCountdownStore()
        return [(CountdownStore(directory: dir), CountdownStore(directory: dir)), (memory, memory)]
    }

    @Test("the first claim of an end wins; the others see it held for the rest of the lease, then done once marked")
    func oneWinner() throws {
        let end = 1_000_060 * s
        for (a, b) in Self.stores() {
            let won = try a.claimEnd(id: "x", end: end, owner: "A", lease: 10 * s, now: at(60))
            guard case .won(let claim) = won else { Issue.record("\(won)"); continue }
            #expect(claim.token == 1 && claim.end == end && claim.id == "x")
            // A copy that saw the end 3 ms later names the same end.
            #expect(try b.claimEnd(id: "x", end: end + 3_000_000, owner: "B", lease: 10 * s, now: at(61)) == .held(leaseLeft: 9 * s))
            #expect(try a.renewEndClaim(claim, owner: "A", lease: 10 * s, now: at(65)))
            #expect(try b.claimEnd(id: "x", end: end, owner: "B", lease: 10 * s, now: at(71)) == .held(leaseLeft: 4 * s))
            #expect(try a.finishEndClaim(claim, owner: "A", now: at(72)))
            #expect(try b.claimEnd(id: "x", end: end, owner: "B", lease: 10 * s, now: at(73)) == .done)
            #expect(try a.claimEnd(id: "x", end: end, owner: "A", lease: 10 * s, now: at(200)) == .done)
        }
    }

    @Test("a lease that passes unmarked hands the end to the next claimant with a larger token; the first can no longer mark it")
    func takeover() throws {
        let end = 1_000_060 * s
        for (a, b) in Self.stores() {
            guard case .won(let first) = try a.claimEnd(id: "x", end: end, owner: "A", lease: 2 * s, now: at(60)) else {
                Issue.record("no claim"); continue
            }
            #expect(try b.claimEnd(id: "x", end: end, owner: "B", lease: 2 * s, now: at(61.5)) == .held(leaseLeft: s / 2))
            let second = try b.claimEnd(id: "x", end: end, owner: "B", lease: 2 * s, now: at(62))
            guard case .won(let taken) = second else { Issue.record("\(second)"); continue }
            #expect(taken.token == first.token + 1)
            #expect(try !a.renewEndClaim(first, owner: "A", lease: 2 * s, now: at(62.5)))
            #expect(try !a.finishEndClaim(first, owner: "A", now: at(62.5)))
            #expect(try b.finishEndClaim(taken, owner: "B", now: at(63)))
        }
    }

    @Test("a later end of the same countdown is a new claim, and the token keeps growing")
    func laterEnd() throws {
        for (a, b) in Self.stores() {
            guard case .won(let first) = try a.claimEnd(id: "x", end: 1_000_060 * s, owner: "A", lease: 10 * s, now: at(60)) else {
                Issue.record("no claim"); continue
            }
            #expect(try a.finishEndClaim(first, owner: "A", now: at(60)))
            let next = try b.claimEnd(id: "x", end: 1_000_061 * s, owner: "B", lease: 10 * s, now: at(61))
            #expect(next == .won(EndClaim(id: "x", end: 1_000_061 * s, token: 2)))
            // A late copy of the first end does not claim it again.
            #expect(try a.claimEnd(id: "x", end: 1_000_060 * s, owner: "A", lease: 10 * s, now: at(61)) == .done)
            // Another id has claims of its own.
            #expect(try a.claimEnd(id: "y", end: 1_000_060 * s, owner: "A", lease: 10 * s, now: at(61)) == .won(EndClaim(id: "y", end: 1_000_060 * s, token: 1)))
        }
    }

    @Test("SQLite records the end and claims it in one transaction: the end is in the store before anyone holds it")
    func recordAndClaim() throws {
        let dir = temporaryDirectory()
        let a = CountdownStore(directory: dir), b = CountdownStore(directory: dir)
        try a.save(record("x", seconds: 60))
        let now = StoreInstant(boot: 160 * s, wall: 1_000_060 * s, bootID: "A")
        let (end, outcome) = try a.recordEndAndClaim(id: "x", record: { _ = $0?.finish(at: now) }, fallbackEnd: 0,
                                                     owner: "A", lease: 5 * s, now: now)
        #expect(end == 1_000_060 * s)
        #expect(outcome == .won(EndClaim(id: "x", end: end, token: 1)))
        #expect(try b.load(id: "x")?.state == .finished)
        // Another process that records the same end (already recorded) finds it held.
        let (again, held) = try b.recordEndAndClaim(id: "x", record: { _ = $0?.finish(at: now) }, fallbackEnd: 0,
                                                    owner: "B", lease: 5 * s, now: now)
        #expect(again == end && held == .held(leaseLeft: 5 * s))
    }
}
