import Foundation
import Testing

/// Issue 51: under `cdscript test -c`, a spec that runs the project's tool as a
/// subprocess the way luacov's users do (`package.loaded["luacov.runner"]`, then
/// `arg[-1] -lluacov bin/tool.lua`) gets the tool covered, as under busted -c
/// (Fixtures/busted_subprocess).
@Suite("coverage follows the specs' subprocesses: luacov.runner under -c, cdscript-lua -lluacov counting into the run's stats")
struct SubprocessCoverageTests {
    static let fixture = BinaryRunner.packageRoot.appendingPathComponent("Tests/EndToEndTests/Fixtures/busted_subprocess")
    static var interpreter: URL { BinaryRunner.binary.deletingLastPathComponent().appendingPathComponent("cdscript-lua") }

    /// A copy of the fixture: the runs write their reports into it.
    static func project() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("subprocess-coverage-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: fixture, to: dir)
        return dir
    }

    /// Each file's record of a luacov.stats.out: name -> the counts of lines 1...MAX.
    static func records(_ text: String) -> [String: [Int]] {
        var out: [String: [Int]] = [:]
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var i = 0
        while i + 1 < lines.count, let colon = lines[i].firstIndex(of: ":") {
            out[String(lines[i][lines[i].index(after: colon)...])] = lines[i + 1].split(separator: " ").compactMap { Int($0) }
            i += 2
        }
        return out
    }

    @Test("under -c, the tool run six times by a spec (four at once, one ending with os.exit(2)) counts every run into luacov.stats.out and lcov.info")
    func subprocessesCounted() throws {
        let dir = try Self.project()
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try BinaryRunner.run(["test", "-c"], timeout: 60, in: dir, environment: ["EXPECT_LUACOV": "1"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let stats = Self.records(try String(contentsOf: dir.appendingPathComponent("luacov.stats.out"), encoding: .utf8))
        // bin/tool.lua: six runs, one negative (lines 7-8), five that print (line 10).
        #expect(stats["bin/tool.lua"] == [0, 0, 6, 6, 6, 6, 1, 1, 0, 5], "\(stats)")
        // triangle(4), (1), (2), (3), (4): 5 calls, 14 iterations; unused() never runs.
        #expect(stats["src/tool/core.lua"]?.prefix(8) == [6, 0, 6, 5, 19, 14, 0, 5], "\(stats)")
        let lcov = try String(contentsOf: dir.appendingPathComponent("lcov.info"), encoding: .utf8)
        #expect(lcov.contains("SF:bin/tool.lua\n") && lcov.contains("SF:src/tool/core.lua\n"), "\(lcov)")
        #expect(lcov.contains("DA:12,0\n"), "core.unused's body never ran: \(lcov)")
        // The run's private stats file is gone with the run.
        #expect(!run.stderr.contains("cdscript-lua"), "\(run.stderr)")
    }

    @Test("without -c, specs see no luacov.runner and the tool writes no stats")
    func noCoverageNoRunner() throws {
        let dir = try Self.project()
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try BinaryRunner.run(["test"], timeout: 60, in: dir)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("luacov.stats.out").path))
    }

    @Test("eight cdscript-lua -lluacov ending at once lose no count: added under a lock, renamed into place")
    func concurrentSubprocessesMerge() throws {
        let dir = try Self.project()
        defer { try? FileManager.default.removeItem(at: dir) }
        let stats = dir.appendingPathComponent("run.stats.out")
        try "1:bin/tool.lua\n100 \n".write(to: stats, atomically: true, encoding: .utf8)
        // All eight started before any is waited for (a shell's `wait` can hang on
        // the signal mask a test harness passes down).
        let processes = (0..<8).map { _ in
            let process = Process()
            process.executableURL = Self.interpreter
            process.arguments = ["-lluacov", "bin/tool.lua", "3"]
            process.currentDirectoryURL = dir
            process.environment = ProcessInfo.processInfo.environment.merging(["CDSCRIPT_LUACOV_STATS": stats.path]) { $1 }
            process.standardOutput = FileHandle.nullDevice
            return process
        }
        for process in processes { try process.run() }
        for process in processes { process.waitUntilExit() }
        let records = Self.records(try String(contentsOf: stats, encoding: .utf8))
        // Added to what the file held: line 1 had 100; line 3 runs once a process.
        #expect(records["bin/tool.lua"] == [100, 0, 8, 8, 8, 8, 0, 0, 0, 8], "\(records)")
        #expect(records["src/tool/core.lua"]?[5] == 24, "\(records)")
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix("run.stats.out.") && $0 != "run.stats.out.lock" }
        #expect(left.isEmpty, "temporary files left: \(left)")
    }

    @Test("every line busted -c with luacov counted in the tool and its library, cdscript test -c counts too, as often or more (luacov loses runs that end at once)",
          .enabled(if: LuacovSource.available, "no copy of luacov's source (\(LuacovSource.mirror)) to run busted -c with"))
    func againstBustedWithLuacov() throws {
        let luacov = try LuacovSource.unpack()
        defer { try? FileManager.default.removeItem(at: luacov) }
        let bustedDir = try Self.project(), ourDir = try Self.project()
        defer { try? FileManager.default.removeItem(at: bustedDir); try? FileManager.default.removeItem(at: ourDir) }
        let environment = ["EXPECT_LUACOV": "1", "LUA_PATH": luacov.appendingPathComponent("src/?.lua").path + ";;"]
        let busted = try BustedCompatTests.run("/usr/bin/lua5.4", ["/usr/bin/busted", "-c"], in: bustedDir, environment: environment)
        let ours = try BinaryRunner.run(["test", "-c"], timeout: 60, in: ourDir, environment: environment)
        #expect(busted.status == 0 && ours.status == 0, "\(busted.stdout)\(busted.stderr)\(ours.stdout)\(ours.stderr)")
        let theirs = Self.records(try String(contentsOf: bustedDir.appendingPathComponent("luacov.stats.out"), encoding: .utf8))
        let mine = Self.records(try String(contentsOf: ourDir.appendingPathComponent("luacov.stats.out"), encoding: .utf8))
        for name in ["bin/tool.lua", "src/tool/core.lua"] {
            let expected = theirs[name] ?? []
            let got = mine[name] ?? []
            #expect(expected.contains { $0 > 0 }, "busted+luacov counted nothing of \(name): \(theirs.keys.sorted())")
            for (index, count) in expected.enumerated() where count > 0 {
                #expect(index < got.count && got[index] >= count, "\(name):\(index + 1): busted \(count), cdscript \(index < got.count ? got[index] : 0)")
            }
        }
    }
}

/// luacov 0.17's source, from a copy of its repository where there is one: what
/// busted -c loads. Unpacked outside the tree, never part of it.
enum LuacovSource {
    static let mirror = "/work/.mirror/lunarmodules+luacov/repo"
    static var available: Bool { FileManager.default.fileExists(atPath: mirror) }

    static func unpack() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("luacov-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let unpack = Process()
        unpack.executableURL = URL(fileURLWithPath: "/bin/sh")
        unpack.arguments = ["-c", "git -C \"$1\" archive HEAD src | tar -x -C \"$2\"", "sh", mirror, dir.path]
        try unpack.run()
        unpack.waitUntilExit()
        return dir
    }
}
