import Foundation
import Testing

/// `cdscript run --coverage`: a script's countdown paths, measured with the
/// host's line hook, in the reports `cdscript test --coverage` writes.
@Suite("run --coverage: luacov.stats.out, lcov.info and a summary for a script's run")
struct RunCoverageTests {
    /// A script with two branches; only the `done` one runs (the countdown ends).
    static let script = """
        local function finished(t, reason)
          print("done " .. reason)
        end
        local function cancelled(t)
          print("cancelled")
          print("again")
        end
        local h = countdown.start{ seconds = 0.01, on_done = finished }
        if h == nil then
          cancelled(h)
        end

        """

    func folder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-runcov-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test("lcov.info's DA lines are the lines that ran, and lcov --summary agrees; the preludes are not reported")
    func twoBranches() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.script.write(to: dir.appendingPathComponent("two.lua"), atomically: true, encoding: .utf8)
        let run = try BinaryRunner.run(["run", "--coverage", "two.lua"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "done finished\n")
        let info = try String(contentsOf: dir.appendingPathComponent("lcov.info"), encoding: .utf8)
        let da = info.split(separator: "\n").filter { $0.hasPrefix("DA:") }
        // The on_done hook ran (2), the other branch (5, 6, 10) did not.
        #expect(info.hasPrefix("TN:\nSF:two.lua\n"), "\(info)")
        #expect(da.contains("DA:2,1"), "\(info)")
        #expect(da.contains("DA:5,0") && da.contains("DA:6,0") && da.contains("DA:10,0"), "\(info)")
        #expect(da.contains("DA:8,1") && da.contains("DA:9,1"), "\(info)")
        let hit = da.filter { !$0.hasSuffix(",0") }.count
        #expect(info.contains("LF:\(da.count)\nLH:\(hit)\n"))
        #expect(!info.contains("prelude") && !info.contains("built-in"))
        let lcov = try BustedCompatTests.run("/usr/bin/lcov", ["--summary", "lcov.info"], in: dir)
        #expect(lcov.status == 0, "\(lcov.stderr)")
        #expect((lcov.stdout + lcov.stderr).contains("(\(hit) of \(da.count) lines)"), "\(lcov.stdout)\(lcov.stderr)")
        let stats = try String(contentsOf: dir.appendingPathComponent("luacov.stats.out"), encoding: .utf8)
        #expect(stats.contains(":two.lua\n"), "\(stats)")
        #expect(run.stderr.contains("two.lua") && run.stderr.contains("total"), "\(run.stderr)")
    }

    @Test(".luacov's exclude leaves a module out; without --coverage nothing is written")
    func luacovExclude() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try "return { twice = function(x) return 2 * x end }\n".write(to: dir.appendingPathComponent("helper.lua"), atomically: true, encoding: .utf8)
        try "local m = require('helper')\nprint(m.twice(2))\n".write(to: dir.appendingPathComponent("main.lua"), atomically: true, encoding: .utf8)
        let plain = try BinaryRunner.run(["run", "main.lua"], in: dir, environment: ["LUA_PATH": "./?.lua;;"])
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("lcov.info").path))
        let both = try BinaryRunner.run(["run", "--coverage", "main.lua"], in: dir, environment: ["LUA_PATH": "./?.lua;;"])
        #expect(both.status == 0, "\(both.stderr)")
        let info = try String(contentsOf: dir.appendingPathComponent("lcov.info"), encoding: .utf8)
        #expect(info.contains("SF:main.lua") && info.contains("SF:helper.lua"), "\(info)")
        try "exclude = { 'helper' }\n".write(to: dir.appendingPathComponent(".luacov"), atomically: true, encoding: .utf8)
        let excluded = try BinaryRunner.run(["run", "--coverage", "main.lua"], in: dir, environment: ["LUA_PATH": "./?.lua;;"])
        #expect(excluded.status == 0, "\(excluded.stderr)")
        let after = try String(contentsOf: dir.appendingPathComponent("lcov.info"), encoding: .utf8)
        #expect(after.contains("SF:main.lua") && !after.contains("SF:helper.lua"), "\(after)")
    }

    @Test("a .luacov that cannot be read is refused before the script runs: exit 4, and the file named")
    func unreadableLuacov() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try "print('ran')\n".write(to: dir.appendingPathComponent("main.lua"), atomically: true, encoding: .utf8)
        try "exclude = { 'helper' \n".write(to: dir.appendingPathComponent(".luacov"), atomically: true, encoding: .utf8)
        let refused = try BinaryRunner.run(["run", "--coverage", "main.lua"], in: dir)
        #expect(refused.status == 4, "\(refused.stderr)")
        #expect(refused.stderr.contains(".luacov"), "\(refused.stderr)")
        #expect(!refused.stdout.contains("ran"), "the script did not run: \(refused.stdout)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("lcov.info").path))
    }

    @Test("beside --budget and the script's own debug.sethook; coroutines' lines count")
    func besideOtherHooks() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try """
            local lines = 0
            debug.sethook(function() lines = lines + 1 end, "l")
            local co = coroutine.wrap(function()
              coroutine.yield(1)
              return 2
            end)
            print(co(), co())
            debug.sethook()
            print(lines > 0)
            countdown.start{ seconds = 0.01, on_done = function()
              while true do end
            end }

            """.write(to: dir.appendingPathComponent("loop.lua"), atomically: true, encoding: .utf8)
        let run = try BinaryRunner.run(["run", "--coverage", "--budget", "100000", "loop.lua"], in: dir)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stdout == "1\t2\ntrue\n")
        #expect(run.stderr.contains("instruction budget exceeded"), "\(run.stderr)")
        let info = try String(contentsOf: dir.appendingPathComponent("lcov.info"), encoding: .utf8)
        #expect(info.contains("DA:4,1\n") && info.contains("DA:5,1\n"), "\(info)")
        #expect(info.contains("DA:11,") && !info.contains("DA:11,0\n"), "\(info)")
    }

    @Test("a report that cannot be written ends the run with 74")
    func unwritable() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try "print('x')\n".write(to: dir.appendingPathComponent("s.lua"), atomically: true, encoding: .utf8)
        // A folder where the report goes: it cannot be replaced by a file.
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("lcov.info"), withIntermediateDirectories: true)
        let run = try BinaryRunner.run(["run", "--coverage", "s.lua"], in: dir)
        #expect(run.status == 74, "\(run.stderr)")
        #expect(run.stderr.contains("lcov.info"), "\(run.stderr)")
    }
}
