import CountdownCore
import Foundation
import RedisTestServer
@testable import RedisStore
import Testing

/// The Redis end claim: one atomic script per step, the lease a key with PX, the
/// fencing token a counter that only grows. The rules every store follows are
/// in StoreConformanceTests (EndClaimConformanceTests).
@Suite("End claims on a real redis-server", .serialized)
struct RedisEndClaimTests: RedisSuite {
    let server: RedisServer

    init() throws { server = try RedisServer() }

    @Test("the lease is a key that expires on the server's clock and the token a counter: a claimant's clock far ahead takes nothing over")
    func leaseOnTheServersClock() throws {
        let a = try store(), b = try store()
        let end: Nanoseconds = 1_800_000_000_000_000_000
        #expect(try a.claimEnd(id: "x", end: end, owner: "A", lease: 10_000_000_000, now: now) == .won(EndClaim(id: "x", end: end, token: 1)))
        #expect(try server.cli("GET", "cdscript:end-lease:x") == "A 1")
        #expect(try server.cli("GET", "cdscript:end-token:x") == "1")
        let ttl = Int(try server.cli("PTTL", "cdscript:end-lease:x")) ?? -1
        #expect(ttl > 8_000 && ttl <= 10_000, "\(ttl)")
        var hourAhead = now
        hourAhead.wall += 3_600_000_000_000
        hourAhead.boot += 3_600_000_000_000
        guard case .held = try b.claimEnd(id: "x", end: end, owner: "B", lease: 10_000_000_000, now: hourAhead) else {
            Issue.record("a claimant's clock ended the lease"); return
        }
        #expect(try a.finishEndClaim(EndClaim(id: "x", end: end, token: 1), owner: "A", now: now))
        #expect(try server.cli("EXISTS", "cdscript:end-lease:x") == "0")
    }
}
