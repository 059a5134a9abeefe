import Foundation
import RedisTestServer
import Testing

/// `cdscript test --state-dir DIR` and `--store URL`: the specs of tests/ that persist,
/// run against a real SQLite file and a real redis-server (one of this suite's own,
/// on a free port, stopped even when a test fails).
@Suite("cdscript test against a real store: runs kept apart, nothing left behind", .serialized)
struct TestCommandStoreTests {
    static let specs = ["tests/store_spec.lua", "tests/persistent_sms_spec.lua"]

    /// A spec that stores `id` "a" with `seconds` and checks, many times over, that
    /// it sees its own countdown and no other run's.
    static func isolationSpec(seconds: Int) throws -> String {
        try BinaryRunner.script("""
            for i = 1, 40 do
              it("sees only its own 'a' (" .. i .. ")", function()
                assert(countdown.fetch("a") == nil, "a countdown 'a' was there before this test stored one")
                countdown.start{ id = "a", seconds = \(seconds), persist = true }
                clock.advance(1)
                local h = countdown.fetch("a")
                assert(h:remaining() == \(seconds - 1), "remaining " .. h:remaining())
                local stored = process.stored()
                assert(#stored == 1 and stored[1].id == "a", #stored .. " stored")
              end)
            end
            """, name: "isolation_\(seconds)_spec.lua")
    }

    /// Runs two `cdscript test` at once with `store` options; returns both results.
    static func twoRunsAtOnce(_ store: [String]) throws -> [BinaryRunner.Result] {
        let specs = [try isolationSpec(seconds: 100), try isolationSpec(seconds: 200)]
        nonisolated(unsafe) var results: [BinaryRunner.Result?] = [nil, nil]
        nonisolated(unsafe) var failure: (any Error)?
        let group = DispatchGroup()
        for (index, spec) in specs.enumerated() {
            group.enter()
            DispatchQueue.global().async {
                do { results[index] = try BinaryRunner.run(["test"] + store + [spec], timeout: 60) } catch { failure = error }
                group.leave()
            }
        }
        group.wait()
        if let failure { throw failure }
        return results.compactMap { $0 }
    }

    @Test("--state-dir: the persistent specs pass on SQLite; another countdown in the store is left alone and nothing else is left")
    func sqlite() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-test-store-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let seed = try BinaryRunner.run(["--state-dir", dir, try BinaryRunner.script(#"countdown.start{ id = "a", seconds = 1000, persist = true }; os.exit(0)"#)])
        #expect(seed.status == 0, "\(seed.stderr)")
        let result = try BinaryRunner.run(["test", "--state-dir", dir] + Self.specs, timeout: 60)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.lines.last?.wholeMatch(of: /[1-9][0-9]* passed, 0 failed/) != nil, "\(result.lines.last ?? "")")
        for run in try Self.twoRunsAtOnce(["--state-dir", dir]) {
            #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
            #expect(run.lines.last == "40 passed, 0 failed")
        }
        let listed = try BinaryRunner.run(["list", "--state-dir", dir])
        #expect(listed.lines.count == 2, "\(listed.stdout)")
        #expect(listed.lines.last?.hasPrefix("a ") == true, "\(listed.stdout)")
    }

    @Test("--store: the persistent specs pass on Redis; two runs at once keep apart; only the other countdown is left")
    func redis() throws {
        let server = try RedisServer()
        defer { server.stop() }
        let store = ["--store", server.url + "/2"]
        let seed = try BinaryRunner.run(store + [try BinaryRunner.script(#"countdown.start{ id = "a", seconds = 1000, persist = true }; os.exit(0)"#)])
        #expect(seed.status == 0, "\(seed.stderr)")
        let before = try server.cli("-n", "2", "HGET", "cdscript:countdowns", "a")
        let result = try BinaryRunner.run(["test"] + store + Self.specs, timeout: 60)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.lines.last?.wholeMatch(of: /[1-9][0-9]* passed, 0 failed/) != nil, "\(result.lines.last ?? "")")
        for run in try Self.twoRunsAtOnce(store) {
            #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
            #expect(run.lines.last == "40 passed, 0 failed")
        }
        #expect(try server.cli("-n", "2", "HKEYS", "cdscript:countdowns") == "a")
        #expect(try server.cli("-n", "2", "HGET", "cdscript:countdowns", "a") == before)
    }

    @Test("a store that cannot be used ends the run before any test (exit 6); a bad URL is bad usage (exit 64)")
    func unusableStore() throws {
        let port = try RedisServer.freePort()
        let refused = try BinaryRunner.run(["test", "--store", "redis://127.0.0.1:\(port)", "tests/store_spec.lua"])
        #expect(refused.status == 6)
        #expect(refused.stderr.hasPrefix("cdscript test: --store: "), "\(refused.stderr)")
        #expect(refused.stdout.isEmpty)
        let file = try BinaryRunner.script("not a folder", name: "state")
        let notFolder = try BinaryRunner.run(["test", "--state-dir", file, "tests/store_spec.lua"])
        #expect(notFolder.status == 6, "\(notFolder.stderr)")
        #expect(notFolder.stderr.hasPrefix("cdscript test: --state-dir: "), "\(notFolder.stderr)")
        let bad = try BinaryRunner.run(["test", "--store", "rediss://x?cafile=typo.pem", "tests/store_spec.lua"])
        #expect(bad.status == 64, "\(bad.stderr)")
    }
}
