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
        #expect(bad.problem.contains("expected 8 or 9 fields"))
        #expect(report.problems.contains { $0.id == "good" && $0.problem.contains("field done = 7") })
        #expect(report.problems.contains { $0.id == "good" && $0.subject.contains("end-token") })
        #expect(report.notes.contains { $0.hasPrefix("1 end claim is kept") })
        #expect(try changesSinceSave() == before, "the check wrote to the server")
    }

    @Test("an unreachable server is an error, not a report")
    func unreachable() throws {
        let url = try RedisURL("redis://127.0.0.1:\(try RedisServer.freePort())")
        #expect(throws: RedisError.self) { try RedisCountdownStore(url: url).check() }
    }
}
