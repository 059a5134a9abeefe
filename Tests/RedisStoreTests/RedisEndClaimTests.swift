import CountdownCore
import Foundation
import RedisTestServer
@testable import RedisStore
import Testing

/// The Redis end claim: one atomic script per step, the lease a key with PX, the
/// fencing token a counter that only grows.
@Suite("End claims on a real redis-server", .serialized)
struct RedisEndClaimTests: RedisSuite {
    let server: RedisServer

    init() throws { server = try RedisServer() }

    @Test("one of two stores wins an end; the other sees it held, then done once it is marked")
    func oneWinner() throws {
        let a = try store(), b = try store()
        let end: Nanoseconds = 1_800_000_000_000_000_000
        let won = try a.claimEnd(id: "x", end: end, owner: "A", lease: 10_000_000_000, now: now)
        #expect(won == .won(EndClaim(id: "x", end: end, token: 1)))
        guard case .held(let left) = try b.claimEnd(id: "x", end: end + 2_000_000, owner: "B", lease: 10_000_000_000, now: now) else {
            Issue.record("not held"); return
        }
        #expect(left > 8_000_000_000 && left <= 10_000_000_000)
        #expect(try server.cli("GET", "cdscript:end-lease:x") == "A 1")
        #expect(try a.renewEndClaim(EndClaim(id: "x", end: end, token: 1), owner: "A", lease: 10_000_000_000, now: now))
        #expect(try a.finishEndClaim(EndClaim(id: "x", end: end, token: 1), owner: "A", now: now))
        #expect(try b.claimEnd(id: "x", end: end, owner: "B", lease: 10_000_000_000, now: now) == .done)
    }

    @Test("when the lease key expires the next claim wins with a larger token, and the first can no longer renew or mark it")
    func takeover() throws {
        let a = try store(), b = try store()
        let end: Nanoseconds = 1_800_000_000_000_000_000
        let first = EndClaim(id: "y", end: end, token: 1)
        #expect(try a.claimEnd(id: "y", end: end, owner: "A", lease: 200_000_000, now: now) == .won(first))
        // The server's clock ends the lease: no claimant's clock is trusted.
        var outcome = try b.claimEnd(id: "y", end: end, owner: "B", lease: 10_000_000_000, now: now)
        var tries = 0
        while case .held = outcome, tries < 1000 {
            Thread.sleep(forTimeInterval: 0.01)
            tries += 1
            outcome = try b.claimEnd(id: "y", end: end, owner: "B", lease: 10_000_000_000, now: now)
        }
        #expect(outcome == .won(EndClaim(id: "y", end: end, token: 2)))
        #expect(try !a.renewEndClaim(first, owner: "A", lease: 10_000_000_000, now: now))
        #expect(try !a.finishEndClaim(first, owner: "A", now: now))
        #expect(try server.cli("GET", "cdscript:end-token:y") == "2")
        // A later end: claimed anew, token 3.
        #expect(try a.claimEnd(id: "y", end: end + 5_000_000_000, owner: "A", lease: 10_000_000_000, now: now)
                == .won(EndClaim(id: "y", end: end + 5_000_000_000, token: 3)))
    }
}
