import CountdownCore
import Foundation
import RedisTestServer
@testable import RedisStore
import Testing

@Suite("cdscript check on Redis: every record and end claim key read in pieces, nothing written", .serialized)
struct RedisCheckTests: RedisSuite {
    let server: RedisServer

    init() throws { server = try RedisServer() }

    /// The server's count of writes (it never saves: `--save ""`).
    private func changesSinceSave() throws -> String? {
        try server.cli("INFO", "persistence").split(separator: "\n").first { $0.hasPrefix("rdb_changes_since_last_save:") }.map(String.init)
    }

    @Test("a whole store of 2,500 countdowns (more than two HSCAN pieces) checks ok, every record counted")
    func wholeStore() throws {
        let store = try store()
        let t = now
        try store.saveAll((0..<2_500).map { record("c\($0)", seconds: 60, now: t) })
        let report = try RedisCountdownStore(url: try RedisURL(server.url)).check()
        #expect(report.problems == [])
        #expect(report.countdowns == 2_500)
    }

    @Test("a field that does not decode and bad end claim keys are named by id; nothing is written")
    func undecodable() throws {
        let store = try store()
        try store.save(record("good", seconds: 60))
        try server.cli("HSET", RedisCountdownStore.hashKey, "bad", "1|running|duration|x|")
        try server.cli("HSET", "cdscript:end:good", "end", "12", "done", "7")
        try server.cli("SET", "cdscript:end-token:good", "-1")
        try server.cli("SET", "cdscript:end-token:gone", "3")
        let before = try changesSinceSave()
        let report = try RedisCountdownStore(url: try RedisURL(server.url)).check()
        #expect(report.countdowns == 2)
        #expect(report.problems.count == 3, "\(report.problems)")
        let bad = try #require(report.problems.first { $0.id == "bad" })
        #expect(bad.subject == "countdown 'bad'")
        #expect(bad.problem.contains("expected 8 to 11 fields"))
        #expect(report.problems.contains { $0.id == "good" && $0.problem.contains("field done = 7") })
        #expect(report.problems.contains { $0.id == "good" && $0.subject.contains("end-token") })
        #expect(report.notes.contains { $0.hasPrefix("1 end claim is kept") })
        #expect(try changesSinceSave() == before, "the check wrote to the server")
    }

    @Test("a record that HSCAN hands on twice (the hash resized between two slices) is counted once, its problem named once")
    func repeatedByHSCAN() throws {
        // A real server repeats a field only when the hash shrinks between two of the
        // check's own slices, which a test cannot time: a scripted one answers as it then would.
        let good = RedisRecord.encode(record("good", seconds: 60))
        let other = RedisRecord.encode(record("other", seconds: 60))
        let bad = "1|running|duration|x|"
        let hash = RedisCountdownStore.hashKey
        let fake = try ScriptedRedisServer { words in
            typealias R = ScriptedRedisServer
            func slice(_ next: String, _ fields: [String]) -> String { R.array([R.bulk(next), R.array(fields.map(R.bulk))]) }
            switch (words.first, words.count > 2 ? words[1] : "", words.count > 2 ? words[2] : "") {
            case ("PING", _, _): return "+PONG\r\n"
            case ("HSCAN", hash, "0"): return slice("6", ["good", good, "bad", bad])
            case ("HSCAN", hash, "6"): return slice("0", ["bad", bad, "other", other, "good", good])
            case ("SCAN", _, _): return slice("0", [])
            default: return "-ERR not in the script: \(words)\r\n"
            }
        }
        let report = try RedisCountdownStore(url: try RedisURL(fake.url)).check()
        #expect(report.countdowns == 3)
        #expect(report.problems.count == 1, "\(report.problems)")
        #expect(report.problems.first?.id == "bad")
    }

    @Test("an unreachable server is an error, not a report")
    func unreachable() throws {
        let url = try RedisURL("redis://127.0.0.1:\(try RedisServer.freePort())")
        #expect(throws: RedisError.self) { try RedisCountdownStore(url: url).check() }
    }
}
