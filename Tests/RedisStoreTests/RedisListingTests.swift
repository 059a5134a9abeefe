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

    /// The most HSCANs a read of `count` may send: one per piece, with room for the
    /// server answering fewer than asked.
    static var mostScans: Int { 2 * (count / RedisCountdownStore.scanCount + 1) }
    /// The most commands a listing may send: its HSCANs, one HMGET per batch, and the connection's own few.
    static func mostCommands(batch: Int) -> Int { mostScans + (count + batch - 1) / batch + 6 }
    /// The fewest HSCANs: fewer would mean pieces larger on average than twice the count asked for.
    static var fewestScans: Int { count / (2 * RedisCountdownStore.scanCount) }
    /// The most elements (fields and values) in one reply: the count asked for, and a
    /// few more the server may add (it finishes the bucket it is in).
    static var largestReply: Int { 2 * (RedisCountdownStore.scanCount + RedisCountdownStore.scanCount / 10) }

    @Test("a listing of 5,000 is HSCANs of 500 for the ids, then HMGETs in id order, a batch each; no HGETALL, no big reply")
    func listingInPieces() throws {
        try fill()
        let s = try store()
        _ = try server.cli("CONFIG", "RESETSTAT")
        var seen: [String] = []
        var largestBatch = 0
        try s.forEachListed(batchSize: 400) { batch in
            largestBatch = max(largestBatch, batch.countdowns.count)
            seen += batch.countdowns.map(\.id)
            return true
        }
        let stats = try calls()
        #expect(seen.count == Self.count)
        #expect(seen == seen.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        #expect(largestBatch == 400)
        #expect(stats["hgetall"] == nil && stats["hvals"] == nil && stats["hkeys"] == nil, "\(stats)")
        let scans = stats["hscan"] ?? 0
        #expect(scans >= Self.fewestScans && scans <= Self.mostScans, "\(stats)")
        #expect(stats["hmget"] == Self.count / 400 + 1, "\(stats)")
        // INFO itself counts once.
        #expect(stats.values.reduce(0, +) - 1 <= Self.mostCommands(batch: 400), "\(stats)")
        #expect(s.largestSlice > 0 && s.largestSlice <= Self.largestReply, "largest reply: \(s.largestSlice) elements")
    }

    @Test("a listing holds ids between its passes: one removed meanwhile is skipped, one changed shows as it is now")
    func listingBetweenPasses() throws {
        try fill()
        let s = try store()
        let other = try store()
        var first: [StoredCountdown] = []
        var removedSeen = false
        try s.forEachListed(batchSize: 100) { batch in
            if first.isEmpty {
                // After the ids were collected: one later in the listing goes, another changes.
                try server.cli("HDEL", "cdscript:countdowns", "c04000")
                var paused = try #require(try other.load(id: "c04001"))
                paused.state = .paused
                paused.pausedRemaining = 5 * Time.nanosecondsPerSecond
                try other.save(paused)
            }
            first += batch.countdowns
            removedSeen = removedSeen || batch.countdowns.contains { $0.id == "c04000" }
            return true
        }
        #expect(!removedSeen)
        #expect(first.count == Self.count - 1)
        #expect(first.first { $0.id == "c04001" }?.state == .paused)
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
        #expect((stats["hscan"] ?? 0) >= Self.fewestScans && (stats["hscan"] ?? 0) <= Self.mostScans, "\(stats)")
        #expect(stats.values.reduce(0, +) - 1 <= Self.mostScans + 6, "\(stats)")
        #expect(s.largestSlice > 0 && s.largestSlice <= Self.largestReply, "largest reply: \(s.largestSlice) elements")
    }

    @Test("clear of 5,000 finished reads them back an HMGET per 1,000 and removes each with one pipelined script call: no HGET per countdown of its own")
    func clearFinishedInSlices() throws {
        try fill()
        let s = try store()
        let t = now
        // Every one of them finished, as if their ends passed long ago.
        var ended: [StoredCountdown] = []
        for i in 0..<Self.count {
            var record = try #require(try s.load(id: String(format: "c%05d", i)))
            record.wallDeadline = t.wall - 60 * Time.nanosecondsPerSecond
            ended.append(record)
        }
        try s.saveAll(ended)
        _ = try server.cli("CONFIG", "RESETSTAT")
        let cleared = try s.clear(at: t)
        let stats = try calls()
        #expect(cleared.finished.count == Self.count && cleared.finished == cleared.finished.sorted(), "\(cleared.finished.count)")
        // The script reads each record once on the server (INFO counts its HGET); before, each
        // was also read by an HGET of its own first (10,000 for 5,000).
        #expect(stats["hget"] == Self.count, "no read per countdown besides the script's own: \(stats)")
        #expect(stats["hmget"] == Self.count / RedisCountdownStore.clearSlice, "\(stats)")
        #expect(stats["evalsha"] == Self.count, "\(stats)")
        #expect(try server.cli("HLEN", "cdscript:countdowns") == "0")
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
