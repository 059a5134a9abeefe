import Foundation
import Testing

/// `--coverage` you can trust (issue 38): the names and lines busted with
/// luacov writes, lines run inside coroutines, `.luacov`'s `modules`, and
/// reports that hostile file names and files cannot bend.
@Suite("coverage: luacov's names and lines, coroutines, modules, hostile names and files")
struct CoverageTrustTests {
    /// A module with a comment on line 1, a function never called and a coroutine.
    static let module = """
        -- m: a module whose first line is a comment
        local M = {}

        function M.used(n)
          local total = 0
          for i = 1, n do
            total = total + i
          end
          return total
        end

        function M.never_called(x)
          return x * 2
        end

        function M.counter()
          return coroutine.wrap(function()
            for i = 1, 3 do
              coroutine.yield(i)
            end
          end)
        end

        return M

        """

    static let spec = """
        local m = require("lib.m")

        describe("m", function()
          it("adds", function()
            assert.are.equal(6, m.used(3))
          end)

          it("counts in a coroutine", function()
            local next_value = m.counter()
            assert.are.equal(1, next_value())
            assert.are.equal(2, next_value())
          end)
        end)

        """

    /// What busted 2.1.1 with luacov 0.17.0 wrote for the module (`busted -c`
    /// with `.luacov`'s `include = { "^lib/" }`), recorded: luacov is not part
    /// of this tree (scripts/luacov-facts compares with a copy kept outside it).
    static let expectedStats = "24:lib/m.lua\n0 1 0 1 1 4 3 0 1 1 0 1 0 1 0 1 2 2 2 0 1 1 0 1 \n"

    /// The lines luacov's reporter counts, with their hits: not line 1 (a
    /// comment), not the lone `end`s; line 13 (`return x * 2`) never ran.
    /// luacov 0.17's own report of the same stats: `lib/m.lua 12   1      92.31%`.
    static let expectedLcov = """
        TN:
        SF:lib/m.lua
        DA:2,1
        DA:4,1
        DA:5,1
        DA:6,4
        DA:7,3
        DA:9,1
        DA:12,1
        DA:13,0
        DA:16,1
        DA:17,2
        DA:18,2
        DA:19,2
        DA:24,1
        LF:13
        LH:12
        end_of_record

        """

    static func project(_ files: [String: String]) throws -> URL {
        try BustedCommandLineTests.project(files)
    }

    @Test("test -c: lib/m.lua as busted+luacov names it, no DA for the comment on line 1, coroutine lines counted, the uncalled function missed")
    func moduleAgainstBustedAndLuacov() throws {
        let dir = try Self.project(["lib/m.lua": Self.module, "spec/m_spec.lua": Self.spec, ".luacov": "include = { \"^lib/\" }\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let ours = try BustedCommandLineTests.cdscript(["-c", "spec"], in: dir)
        #expect(ours.status == 0, "\(ours.stdout)\(ours.stderr)")
        let stats = try String(contentsOf: dir.appendingPathComponent("luacov.stats.out"), encoding: .utf8)
        let lcov = try String(contentsOf: dir.appendingPathComponent("lcov.info"), encoding: .utf8)
        #expect(stats == Self.expectedStats, "\(stats)")
        #expect(lcov == Self.expectedLcov, "\(lcov)")
        #expect(ours.stderr.contains("lib/m.lua    12/13    92.31%"), "\(ours.stderr)")
    }

    /// Programs whose luacov.stats.out a real luacov 0.17 recorded
    /// (`lua5.4 -lluacov`, by scripts/luacov-facts).
    static let recordedRuns = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("ScriptTestingTests/Fixtures/luacov-facts")

    @Test("run --coverage writes luacov.stats.out byte for byte as luacov did for each recorded program (loops, coroutines, tables, errors, a module)")
    func statsAgainstRecordedLuacov() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.recordedRuns.appendingPathComponent("runs-stats").path)
            .filter { $0.hasSuffix(".stats.out") }.sorted()
        #expect(names.count >= 5, "\(names)")
        for name in names {
            let program = String(name.dropLast(".stats.out".count)) + ".lua"
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("recorded-run-\(UUID().uuidString)")
            try FileManager.default.copyItem(at: Self.recordedRuns.appendingPathComponent("runs"), to: dir)
            defer { try? FileManager.default.removeItem(at: dir) }
            let run = try BinaryRunner.run(["run", "--coverage", program], in: dir)
            #expect(run.status == 0, "\(program): \(run.stderr)")
            let ours = try String(contentsOf: dir.appendingPathComponent("luacov.stats.out"), encoding: .utf8)
            let luacov = try String(contentsOf: Self.recordedRuns.appendingPathComponent("runs-stats/\(name)"), encoding: .utf8)
            #expect(ours == luacov, "\(program): luacov wrote\n\(luacov)\ncdscript wrote\n\(ours)")
        }
    }

    @Test("run --coverage counts the lines run inside coroutines, made with coroutine.wrap and coroutine.create")
    func runCountsCoroutines() throws {
        let dir = try Self.project(["lib/m.lua": Self.module, "main.lua": """
            local m = require("lib.m")
            local next_value = m.counter()
            print(next_value(), next_value(), next_value())
            local co = coroutine.create(function(a)
              local b = coroutine.yield(a + 1)
              return b * 2
            end)
            print(select(2, coroutine.resume(co, 1)), select(2, coroutine.resume(co, 5)))

            """])
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try BinaryRunner.run(["run", "--coverage", "main.lua"], in: dir, environment: ["LUA_PATH": "./?.lua;;"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "1\t2\t3\n2\t10\n")
        let lcov = try String(contentsOf: dir.appendingPathComponent("lcov.info"), encoding: .utf8)
        #expect(lcov.contains("SF:lib/m.lua\n"), "\(lcov)")
        #expect(lcov.contains("DA:18,3\nDA:19,3\n"), "\(lcov)")
        #expect(lcov.contains("SF:main.lua\n") && lcov.contains("DA:5,1\nDA:6,1\n"), "\(lcov)")
    }

    @Test(".luacov's modules: included by module name, reported under the file name luacov gives")
    func modulesKey() throws {
        let dir = try Self.project([
            "src/calc.lua": "local M = {}\nfunction M.add(a, b) return a + b end\nreturn M\n",
            "src/pkg/a.lua": "return 1\n",
            "other.lua": "return 2\n",
            "spec/calc_spec.lua": """
                local calc = require("calc")
                local a = require("pkg.a")
                local other = require("other")
                it("adds", function() assert.are.equal(3, calc.add(1, 2)) end)

                """,
            ".luacov": "modules = { calc = 'src/calc.lua', ['pkg.*'] = 'src' }\n",
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try BustedCommandLineTests.cdscript(["-c", "spec"], in: dir)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let stats = try String(contentsOf: dir.appendingPathComponent("luacov.stats.out"), encoding: .utf8)
        let lcov = try String(contentsOf: dir.appendingPathComponent("lcov.info"), encoding: .utf8)
        // busted's lpath finds them as ./src/...; `other` matches no module: left out.
        #expect(stats.contains(":src/calc.lua\n") && stats.contains(":src/pkg/a.lua\n") && !stats.contains("other"), "\(stats)")
        #expect(lcov.contains("SF:src/calc.lua\n") && lcov.contains("SF:src/pkg/a.lua\n") && !lcov.contains("other"), "\(lcov)")
    }

    @Test("a file name with line breaks is left out of both reports (said on stderr), and ESC/BEL are escaped in the summary")
    func hostileNames() throws {
        let injected = "a\nSF:injected.lua\nDA:1,99\nend_of_record\n.lua"
        let loud = "e\u{1B}[31m\u{07}.lua"
        let dir = try Self.project([injected: "return 1\n", loud: "return 2\n", "main.lua": """
            dofile(\"a\\nSF:injected.lua\\nDA:1,99\\nend_of_record\\n.lua\")
            dofile(\"e\\27[31m\\7.lua\")
            print("ok")

            """])
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try BinaryRunner.run(["run", "--coverage", "main.lua"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        let lcov = try String(contentsOf: dir.appendingPathComponent("lcov.info"), encoding: .utf8)
        let stats = try String(contentsOf: dir.appendingPathComponent("luacov.stats.out"), encoding: .utf8)
        #expect(!lcov.contains("injected") && !lcov.contains("DA:1,99"), "\(lcov)")
        #expect(!stats.contains("injected"), "\(stats)")
        // Every stats record is a MAX:NAME line and a line of counts.
        let records = stats.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(records.count % 2 == 0)
        #expect(run.stderr.contains("left out of luacov.stats.out and lcov.info") && run.stderr.contains("a\\nSF:injected.lua"), "\(run.stderr)")
        #expect(!run.stderr.contains("\u{1B}") && !run.stderr.contains("\u{07}"), "\(run.stderr)")
        #expect(run.stderr.contains("e\\e[31m\\x07.lua"), "\(run.stderr)")
    }

    @Test("the reports replace a symbolic link at their names (its target untouched) and a file in place, also under --sandbox")
    func symlinksAndReplacement() throws {
        for sandbox in [false, true] {
            let dir = try Self.project(["main.lua": "print('ok')\n"])
            defer { try? FileManager.default.removeItem(at: dir) }
            let target = dir.appendingPathComponent("precious.txt")
            try "keep me\n".write(to: target, atomically: true, encoding: .utf8)
            try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("lcov.info").path, withDestinationPath: target.path)
            let stats = dir.appendingPathComponent("luacov.stats.out")
            try "old\n".write(to: stats, atomically: false, encoding: .utf8)
            let before = try FileManager.default.attributesOfItem(atPath: stats.path)[.systemFileNumber] as? Int
            let run = try BinaryRunner.run(["run", "--coverage"] + (sandbox ? ["--sandbox"] : []) + ["main.lua"], in: dir)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(try String(contentsOf: target, encoding: .utf8) == "keep me\n")
            let kind = try FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent("lcov.info").path)[.type] as? FileAttributeType
            #expect(kind == .typeRegular)
            #expect(try String(contentsOf: dir.appendingPathComponent("lcov.info"), encoding: .utf8).contains("SF:main.lua\n"))
            // A new file renamed into place, not the old one truncated and rewritten.
            let after = try FileManager.default.attributesOfItem(atPath: stats.path)[.systemFileNumber] as? Int
            #expect(before != after)
            #expect(try String(contentsOf: stats, encoding: .utf8).hasSuffix(":main.lua\n1 \n"))
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".tmp-") }
            #expect(leftovers.isEmpty, "\(leftovers)")
        }
    }
}
