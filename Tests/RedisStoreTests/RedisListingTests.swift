import CountdownCore
import Foundation
import RedisTestServer
@testable import RedisStore
import Testing

/// Listing and clearing read the hash in pieces: no command holds the server
/// for the whole store (an `HGETALL` of 100,000 countdowns held it 46-72 ms).
@Suite("The Redis store reads every countdown in bounded pieces", .serialized)
struct RedisListingTests: RedisSuite {
    let server: RedisServer
    static let count = 5000

    init() throws { server = try RedisServer() }

    /// `count` running countdowns written straight into the hash (one HSET).
    func fill(paused: Bool = false) throws {
        var arguments = ["HSET", "cdscript:countdowns"]
        let wall = now.wall
        for i in 0..<Self.count {
            let record = StoredCountdown(id: String(format: "c%05d", i), state: paused ? .paused : .running, kind: .duration,
                                         wallDeadline: wall + 3600 * Time.nanosecondsPerSecond,
                                         pausedRemaining: paused ? 60 * Time.nanosecondsPerSecond : nil,
                                         every: Time.nanosecondsPerSecond, total: 3600 * Time.nanosecondsPerSecond,
                                         bootID: nil, bootDeadline: nil, updatedAt: wall)
            arguments += [record.id, RedisRecord.encode(record)]
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/redis-cli")
        p.arguments = ["-p", String(server.port)] + arguments
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        #expect(try server.cli("HLEN", "cdscript:countdowns") == String(Self.count))
    }

    /// Calls per command since the last `CONFIG RESETSTAT`, from `INFO commandstats`.
    func calls() throws -> [String: Int] {
        var result: [String: Int] = [:]
        for line in try server.cli("INFO", "commandstats").split(whereSeparator: \.isNewline) where line.hasPrefix("cmdstat_") {
            let name = line.dropFirst("cmdstat_".count).prefix { $0 != ":" }
            guard let callsField = line.split(separator: ",").first?.split(separator: "=").last, let n = Int(callsField) else { continue }
            result[String(name)] = n
        }
        return result
    }

    /// The most commands a listing of `count` may send: one HSCAN per piece, with room
    /// for the server answering fewer than asked, and the connection's own few.
    static var mostCommands: Int { 2 * (count / RedisCountdownStore.scanCount + 1) + 6 }
    /// The fewest HSCANs: fewer would mean pieces larger on average than twice the count asked for.
    static var fewestScans: Int { count / (2 * RedisCountdownStore.scanCount) }

    @Test("a listing of 5,000 is a few HSCANs of 1,000, no HGETALL; all of them arrive in batches, in id order")
    func listingInPieces() throws {
        try fill()
        let s = try store()
        _ = try server.cli("CONFIG", "RESETSTAT")
        var seen: [String] = []
        var largestBatch = 0
        try s.forEachListed(batchSize: 700) { batch in
            largestBatch = max(largestBatch, batch.countdowns.count)
            seen += batch.countdowns.map(\.id)
            return true
        }
        let stats = try calls()
        #expect(seen.count == Self.count)
        #expect(seen == seen.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        #expect(largestBatch == 700)
        #expect(stats["hgetall"] == nil && stats["hvals"] == nil && stats["hkeys"] == nil, "\(stats)")
        let scans = stats["hscan"] ?? 0
        #expect(scans >= Self.fewestScans, "\(stats)")
        // INFO itself counts once.
        #expect(stats.values.reduce(0, +) - 1 <= Self.mostCommands, "\(stats)")
    }

    @Test("clear with nothing to clear reads in pieces and writes nothing")
    func clearNothingInPieces() throws {
        try fill()
        let s = try store()
        _ = try server.cli("CONFIG", "RESETSTAT")
        let cleared = try s.clear(at: now)
        #expect(cleared.finished.isEmpty && cleared.unreadable.isEmpty)
        let stats = try calls()
        #expect(stats["hgetall"] == nil && stats["evalsha"] == nil && stats["eval"] == nil && stats["hdel"] == nil, "\(stats)")
        #expect((stats["hscan"] ?? 0) >= Self.fewestScans, "\(stats)")
        #expect(stats.values.reduce(0, +) - 1 <= Self.mostCommands, "\(stats)")
    }

    @Test("clear removes the finished ones and the unreadable ones, found in the same pieces, and leaves the rest")
    func clearRemovesWhatQualifies() throws {
        try fill()
        let s = try store()
        let t = now
        var done = record("zz-done", seconds: 10, now: t)
        done.wallDeadline = t.wall - Time.nanosecondsPerSecond
        try s.save(done)
        try server.cli("HSET", "cdscript:countdowns", "zz-bad", "1|running|duration|x|||1|1")
        let cleared = try s.clear(at: now)
        #expect(cleared.finished == ["zz-done"])
        #expect(cleared.unreadable.map(\.id) == ["zz-bad"])
        #expect(try server.cli("HLEN", "cdscript:countdowns") == String(Self.count))
    }
}
