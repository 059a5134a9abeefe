import CountdownCore
import Foundation
import RedisTestServer
@testable import RedisStore
import Testing

/// The Redis end claim: one atomic script per step, the end named by the record
/// the server holds, the lease a key with PX, the fencing token a counter that
/// only grows. The rules every store follows are in StoreConformanceTests
/// (EndClaimConformanceTests).
@Suite("End claims on a real redis-server", .serialized)
struct RedisEndClaimTests: RedisSuite {
    let server: RedisServer

    init() throws { server = try RedisServer() }

    /// Stores "id" finished, as the first process to see its end records it.
    func finished(_ id: String, in store: RedisCountdownStore) throws {
        var record = record(id, seconds: 0)
        record.state = .finished
        try store.save(record)
    }

    @Test("the lease is a key that expires on the server's clock and the token a counter: a claimant's clock far ahead takes nothing over")
    func leaseOnTheServersClock() throws {
        let a = try store(), b = try store()
        try finished("x", in: a)
        guard case .won(let claim) = try a.claimEnd(id: "x", expected: nil, owner: "A", lease: 10_000_000_000, now: now) else {
            Issue.record("no claim"); return
        }
        #expect(try server.cli("GET", "cdscript:end-lease:x") == "A \(claim.token)")
        #expect(try server.cli("GET", "cdscript:end-token:x") == String(claim.token))
        let ttl = Int(try server.cli("PTTL", "cdscript:end-lease:x")) ?? -1
        #expect(ttl > 8_000 && ttl <= 10_000, "\(ttl)")
        var hourAhead = now
        hourAhead.wall += 3_600_000_000_000
        hourAhead.boot += 3_600_000_000_000
        guard case .held = try b.claimEnd(id: "x", expected: nil, owner: "B", lease: 10_000_000_000, now: hourAhead) else {
            Issue.record("a claimant's clock ended the lease"); return
        }
        #expect(try a.finishEndClaim(claim, owner: "A", now: now))
        #expect(try server.cli("EXISTS", "cdscript:end-lease:x") == "0")
    }

    @Test("a server that lost its data hands out a larger token than any before, and the claimant is told its claim is gone")
    func tokenGrowsAcrossDataLoss() throws {
        let a = try store()
        try finished("x", in: a)
        guard case .won(let before) = try a.claimEnd(id: "x", expected: nil, owner: "A", lease: 10_000_000_000, now: now) else {
            Issue.record("no claim"); return
        }
        _ = try server.cli("FLUSHALL")
        #expect(throws: EndClaimDamage.self) { try a.finishEndClaim(before, owner: "A", now: now) }
        try finished("x", in: a)
        guard case .won(let after) = try a.claimEnd(id: "x", expected: nil, owner: "A", lease: 10_000_000_000, now: now) else {
            Issue.record("no claim after the loss"); return
        }
        #expect(after.token > before.token, "tokens \(before.token) then \(after.token)")
    }

    @Test("a damaged claim key is refused by name and reason on every claim, never taken for an outage", arguments: [
        (["SET", "cdscript:end-token:x", "abc"], "cdscript:end-token:x", "abc"),
        (["SET", "cdscript:end-token:x", "99999999999999999999"], "cdscript:end-token:x", "below 2^53"),
        (["SET", "cdscript:end:x", "a string"], "cdscript:end:x", "expected a hash"),
        (["HSET", "cdscript:end:x", "end", "1e400", "done", "0"], "cdscript:end:x", "field end = 1e400"),
        (["HSET", "cdscript:end:x", "done", "7"], "cdscript:end:x", "field done = 7"),
        (["LPUSH", "cdscript:end-lease:x", "A 1"], "cdscript:end-lease:x", "expected a string"),
    ])
    func damagedKeys(command: [String], key: String, problem: String) throws {
        let a = try store()
        try finished("x", in: a)
        _ = try server.cli(["DEL", "cdscript:end:x", "cdscript:end-token:x", "cdscript:end-lease:x"])
        _ = try server.cli(command)
        do {
            let outcome = try a.claimEnd(id: "x", expected: nil, owner: "A", lease: 10_000_000_000, now: now)
            Issue.record("claimed over a damaged key: \(outcome)")
        } catch let damage as EndClaimDamage {
            #expect(damage.description.contains(key) && damage.description.contains(problem), "\(damage)")
        }
    }

    @Test("check names every bad field of a claim hash, done 7 too")
    func checkNamesEveryField() throws {
        let a = try store()
        try finished("x", in: a)
        _ = try server.cli("HSET", "cdscript:end:x", "end", "1e400", "changed", "soon", "done", "7")
        let report = try a.check()
        let text = report.problems.map { "\($0.subject): \($0.problem)" }.joined(separator: "\n")
        for field in ["field end = 1e400", "field changed = soon", "field done = 7"] {
            #expect(text.contains(field), "\(text)")
        }
    }
}
