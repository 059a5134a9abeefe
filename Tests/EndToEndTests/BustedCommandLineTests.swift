import Foundation
import Testing

/// busted users' CI lines with `busted` replaced by `cdscript test` (issue 31):
/// busted's options and `.busted` keys, its JSON document and its errors, checked
/// against real busted 2.1.1 on Lua 5.4 on the same files where busted can run them.
@Suite("busted's command line, .busted file and JSON output under cdscript test")
struct BustedCommandLineTests {
    typealias Outcome = BustedCompatTests.Outcome

    /// A fresh project folder with `files` (relative path -> text).
    static func project(_ files: [String: String]) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-busted-cli-\(UUID().uuidString)")
        for (path, text) in files {
            let url = dir.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return dir
    }

    static func busted(_ arguments: [String], in dir: URL) throws -> (status: Int32, stdout: String, stderr: String) {
        try BustedCompatTests.run("/usr/bin/lua5.4", ["/usr/bin/busted"] + arguments, in: dir)
    }

    static func cdscript(_ arguments: [String], in dir: URL) throws -> (status: Int32, stdout: String, stderr: String) {
        try BustedCompatTests.run(BinaryRunner.binary.path, ["test"] + arguments, in: dir)
    }

    /// Both TAP reports of the same project, as outcomes; cdscript's must equal busted's.
    @discardableResult
    static func sameAsBusted(_ arguments: [String], in dir: URL, sourceLocation: SourceLocation = #_sourceLocation) throws -> [Outcome] {
        let busted = try busted(["-o", "TAP"] + arguments, in: dir)
        let cdscript = try cdscript(["-o", "TAP"] + arguments, in: dir)
        let expected = BustedCompatTests.bustedOutcomes(busted.stdout)
        #expect(!expected.isEmpty, "busted ran nothing: \(busted.stdout)\(busted.stderr)", sourceLocation: sourceLocation)
        #expect(BustedCompatTests.cdscriptOutcomes(cdscript.stdout) == expected,
                "cdscript:\n\(cdscript.stdout)\(cdscript.stderr)\nbusted:\n\(busted.stdout)\(busted.stderr)", sourceLocation: sourceLocation)
        #expect(cdscript.status == (busted.status == 0 ? 0 : 1), sourceLocation: sourceLocation)
        return expected
    }

    /// A project as real ones lay it out: `.busted` with lpath, helper,
    /// exclude-pattern and a named run; its library under ./lua/; fixtures named
    /// like specs; a spec that requires busted and reads `arg`.
    static let layout: [String: String] = [
        ".busted": """
            return {
              _all = { lpath = "./lua/?.lua;./lua/?/init.lua", helper = "spec/helper.lua" },
              default = { ROOT = { "spec" }, ["exclude-pattern"] = "fixture" },
              fast = { tags = "fast", ["exclude-pattern"] = "fixture" },
            }
            """,
        "lua/mylib/init.lua": "return { where = 'project', add = function(a, b) return a + b end }\n",
        // The copy a system install would have: found only without lpath.
        "mylib.lua": "return { where = 'installed', add = function() return 0 end }\n",
        "spec/helper.lua": "HELPER_RAN = true\n",
        "spec/fixtures/broken_fixture_spec.lua": "error('a fixture, not a test')\n",
        "spec/lib_spec.lua": """
            local busted = require("busted")
            local mylib = require("mylib")
            local ended = {}
            busted.subscribe({ "test", "end" }, function(element, parent, status)
              ended[#ended + 1] = element.name .. "=" .. status
              return nil, true
            end)
            describe("mylib", function()
              it("is the project's copy #fast", function() assert.are.equal("project", mylib.where) end)
              it("adds", function() assert.are.equal(3, mylib.add(1, 2)) end)
              it("sees the helper", function() assert.is_true(HELPER_RAN) end)
              it("has busted's API and events", function()
                assert.are.equal("function", type(busted.describe))
                assert.are.equal("function", type(busted.it))
                assert.are.equal("string", type(busted.version))
                assert.are.same({ "is the project's copy #fast=success", "adds=success", "sees the helper=success" }, ended)
              end)
              it("gets the interpreter as arg[-1]", function() assert.are.equal("string", type(arg[-1])) end)
            end)
            """,
    ]

    @Test(".busted's lpath, helper, exclude-pattern and a named run (-r) give busted's results; require('busted') is the running API")
    func projectLayout() throws {
        let dir = try Self.project(Self.layout)
        let all = try Self.sameAsBusted([], in: dir)
        #expect(all.count == 5 && all.allSatisfy { $0.status == "pass" }, "\(all)")
        #expect(try Self.sameAsBusted(["-r", "fast"], in: dir).map(\.name) == ["mylib is the project's copy #fast"])
        // On the command line as well: -p/--exclude-pattern/-m/--helper over a .busted that has none.
        try FileManager.default.removeItem(at: dir.appendingPathComponent(".busted"))
        let flags = ["-m", "./lua/?.lua;./lua/?/init.lua", "--helper", "spec/helper.lua", "--exclude-pattern", "fixture", "spec"]
        #expect(try Self.sameAsBusted(flags, in: dir).count == 5)
        // Without lpath the installed copy is found, as under busted; and the fixture runs without exclude-pattern.
        let bare = try Self.cdscript(["--helper", "spec/helper.lua", "spec"], in: dir)
        #expect(bare.status == 1)
        #expect(bare.stdout.contains("✱ (file did not load)"), "\(bare.stdout)")
        #expect(bare.stdout.contains("Passed in:\n      (string) 'installed'"), "\(bare.stdout)")
    }

    @Test("-r NAME of a task .busted does not have: a message and exit 4")
    func missingTask() throws {
        let dir = try Self.project(Self.layout)
        let result = try Self.cdscript(["-r", "nightly"], in: dir)
        #expect(result.status == 4)
        #expect(result.stderr == "cdscript test: .busted: task `nightly` not found, or not a table\n")
    }

    @Test("with no .busted and no path, spec/ runs even beside an unrelated tests/ folder; tests/ only without spec/")
    func specBesideTests() throws {
        let dir = try Self.project([
            "spec/a_spec.lua": "it('runs from spec/', function() end)\n",
            "tests/helper_test.lua": "error('not this project\\'s tests')\n",
        ])
        let result = try Self.cdscript([], in: dir)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout == "spec/a_spec.lua\n  ✓ runs from spec/\n\n1 passed, 0 failed\n")
        try FileManager.default.removeItem(at: dir.appendingPathComponent("spec"))
        try "it('runs from tests/', function() end)\n".write(to: dir.appendingPathComponent("tests/helper_test.lua"), atomically: true, encoding: .utf8)
        let fallback = try Self.cdscript([], in: dir)
        #expect(fallback.stdout == "tests/helper_test.lua\n  ✓ runs from tests/\n\n1 passed, 0 failed\n")
    }

    /// Specs without `pending`: Debian's busted 2.1.1 writes no JSON at all for a
    /// run with a pending test (its json handler meets the function in a pending
    /// element's attributes and fails silently).
    static let jsonProject: [String: String] = [
        "spec/a_spec.lua": """
            describe("group", function()
              it("passes", function() assert.is_true(true) end)
              it("fails", function() assert.are.equal(1, 2) end)
              it("errors", function() error("boom") end)
              describe("inner", function()
                it("indexes nil", function() local t = nil; return t.x end)
                it("passes too", function() end)
              end)
            end)
            """,
        "spec/b_spec.lua": """
            describe("hooks", function()
              before_each(function() error("setup broke") end)
              it("never runs", function() end)
            end)
            it("top level fails", function() assert.is_nil(1) end)
            """,
    ]

    struct JSONEntry: Equatable, CustomStringConvertible {
        var name: String
        var keys: [String]
        var descriptor: String?
        var message: String?
        var description: String { "\(name) \(keys) \(descriptor ?? "-") \(message ?? "-")" }
    }

    static func entries(_ document: [String: Any], _ key: String, messages: Bool) -> [JSONEntry] {
        (document[key] as? [[String: Any]] ?? []).map { entry in
            let element = entry["element"] as? [String: Any]
            return JSONEntry(name: entry["name"] as? String ?? "?", keys: entry.keys.sorted(),
                             descriptor: element?["descriptor"] as? String, message: messages ? entry["message"] as? String : nil)
        }
    }

    @Test("-o json: busted's document (successes, failures, errors, pendings, duration), the same names, keys and messages as busted's")
    func jsonAgainstBusted() throws {
        let dir = try Self.project(Self.jsonProject)
        let busted = try Self.busted(["-o", "json"], in: dir)
        let cdscript = try Self.cdscript(["-o", "json"], in: dir)
        #expect(cdscript.status == 1 && busted.status != 0)
        let expected = try #require(try JSONSerialization.jsonObject(with: Data(busted.stdout.utf8)) as? [String: Any], "\(busted.stdout)\(busted.stderr)")
        let actual = try #require(try JSONSerialization.jsonObject(with: Data(cdscript.stdout.utf8)) as? [String: Any], "\(cdscript.stdout)\(cdscript.stderr)")
        #expect(Set(actual.keys) == Set(expected.keys))
        #expect(actual["duration"] is Double)
        for key in ["successes", "failures", "pendings"] {
            #expect(Self.entries(actual, key, messages: true) == Self.entries(expected, key, messages: true), "\(key)")
        }
        // Errors: tests that raised, and a before_each that did, named by its block and hook as busted names it.
        let errors = Self.entries(actual, "errors", messages: true)
        #expect(errors == Self.entries(expected, "errors", messages: true))
        #expect(errors.map(\.name) == ["group errors", "group inner indexes nil", "hooks before_each"])
        #expect((actual["errors"] as? [[String: Any]])?.allSatisfy { $0["isError"] as? Bool == true } == true)
        // Each trace says where: the file and line, as busted's does.
        let failure = try #require((actual["failures"] as? [[String: Any]])?.first)
        let trace = try #require(failure["trace"] as? [String: Any])
        #expect(trace["short_src"] as? String == "spec/a_spec.lua")
        #expect(trace["currentline"] as? Int == 3)
    }

    @Test("errors are not failures: the report, TAP, JUnit and the closing line count them as busted does")
    func errorsApart() throws {
        let dir = try Self.project(Self.jsonProject)
        let human = try Self.cdscript([], in: dir)
        let lines = human.stdout.split(separator: "\n").map(String.init)
        #expect(lines.suffix(2) == ["2 failures, 3 errors (raised outside an assertion)", "2 passed, 5 failed"], "\(human.stdout)")
        #expect(lines.contains("  ✱ group > errors (error)"))
        #expect(lines.contains("  ✗ group > fails"))
        let tap = try Self.cdscript(["-o", "TAP"], in: dir)
        #expect(tap.stdout.hasSuffix("1..7\n# 2 failed by assertions, 3 by errors\n# 2 passed, 5 failed\n"), "\(tap.stdout)")
        #expect(tap.stdout.contains("  severity: \"error\"") && tap.stdout.contains("  severity: \"fail\""))
        let junit = try Self.cdscript(["-o", "junit"], in: dir)
        let bustedJUnit = try Self.busted(["-o", "junit"], in: dir)
        #expect(junit.stdout.contains("errors=\"3\" failures=\"2\""), "\(junit.stdout)")
        #expect(bustedJUnit.stdout.contains("failures='2'") && bustedJUnit.stdout.contains("errors='3'"), "\(bustedJUnit.stdout)")
    }

    @Test("--shuffle with --seed runs files and tests in busted's order for that seed; --sort by name")
    func order() throws {
        let project = BustedCompatTests.project
        for seed in ["1", "42", "20260101"] {
            try Self.sameAsBusted(["--shuffle", "--seed", seed], in: project)
        }
        try Self.sameAsBusted(["--sort"], in: project)
        try Self.sameAsBusted(["--shuffle-tests", "--seed", "9"], in: project)
    }

    @Test("-l/--list prints FILE:LINE: NAME of every test as busted's does, running none")
    func list() throws {
        let project = BustedCompatTests.project
        let busted = try Self.busted(["-l"], in: project)
        let cdscript = try Self.cdscript(["--list"], in: project)
        #expect(cdscript.status == 0)
        #expect(cdscript.stdout == busted.stdout)
        #expect(cdscript.stdout.split(separator: "\n").count == 29)
        let quiet = try Self.cdscript(["--list", "--suppress-pending"], in: project)
        #expect(quiet.stdout == (try Self.busted(["-l", "--suppress-pending"], in: project)).stdout)
        #expect(quiet.stdout.split(separator: "\n").count == 27)
    }

    @Test("randomize() in a describe shuffles its tests as busted's does")
    func randomize() throws {
        var lines = ["describe('shuffled', function()", "  randomize(7)"]
        lines += (1...8).map { "  it('test \($0)', function() end)" }
        lines.append("end)")
        let dir = try Self.project(["spec/r_spec.lua": lines.joined(separator: "\n")])
        let outcomes = try Self.sameAsBusted([], in: dir)
        #expect(outcomes.map(\.name) != (1...8).map { "shuffled test \($0)" })
    }

    @Test("--no-keep-going stops at the first failure; --repeat runs again; --suppress-pending, -e, --filter repeated")
    func runControl() throws {
        let dir = try Self.project([
            "spec/a_spec.lua": "it('a1 fails', function() assert.is_true(false) end)\nit('a2', function() end)\n",
            "spec/b_spec.lua": "pending('b1 later')\nit('b2 sees -e', function() assert.are.equal(42, FROM_E) end)\n",
        ])
        let stop = try Self.cdscript(["--no-keep-going"], in: dir)
        #expect(stop.stdout.hasSuffix("0 passed, 1 failed\n"), "\(stop.stdout)")
        let again = try Self.cdscript(["--repeat", "2", "-e", "FROM_E = 42", "spec/b_spec.lua"], in: dir)
        #expect(again.stdout.hasSuffix("2 passed, 0 failed, 2 skipped\n"), "\(again.stdout)")
        let quiet = try Self.cdscript(["--suppress-pending", "-e", "FROM_E = 42", "spec/b_spec.lua"], in: dir)
        #expect(quiet.stdout == "spec/b_spec.lua\n  ✓ b2 sees -e\n\n1 passed, 0 failed\n")
        let filtered = try Self.cdscript(["--filter", "a2", "--filter", "b2", "-e", "FROM_E = 42"], in: dir)
        #expect(filtered.stdout.hasSuffix("2 passed, 0 failed\n"), "\(filtered.stdout)")
    }

    @Test("-o gtest and -o plainTerminal as busted names them; gtest with busted's durations and closing counts, and no totals line of cdscript's")
    func otherOutputs() throws {
        let dir = try Self.project(Self.jsonProject)
        let gtest = try Self.cdscript(["-o", "gtest", "spec/a_spec.lua"], in: dir)
        let lines = gtest.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "[==========] Running tests from scanned files.")
        #expect(lines.contains { $0.wholeMatch(of: /\[       OK \] spec\/a_spec.lua @ 2: group passes \(\d+\.\d\d ms\)/) != nil }, "\(gtest.stdout)")
        #expect(lines.contains { $0.hasPrefix("[  FAILED  ] spec/a_spec.lua @ 3: group fails (") })
        #expect(lines.contains { $0.hasPrefix("[  ERROR   ] spec/a_spec.lua @ 4: group errors (") })
        #expect(lines.contains { $0.wholeMatch(of: /\[----------\] \d+ tests from spec\/a_spec.lua \(\d+\.\d\d ms total\)/) != nil }, "\(gtest.stdout)")
        #expect(!lines.contains { $0.contains(" passed, ") }, "\(gtest.stdout)")
        #expect(lines.last?.hasSuffix(" ERROR") == true || lines.last?.hasSuffix(" ERRORS") == true, "\(gtest.stdout)")
        let plain = try Self.cdscript(["-o", "plainTerminal", "spec/a_spec.lua"], in: dir)
        #expect(plain.stdout.hasPrefix("spec/a_spec.lua\n  + group > passes\n  - group > fails\n"), "\(plain.stdout)")
        #expect(plain.stdout.contains("\n  * group > errors (error)\n"))
        // -Xoutput FILE: junit and json write the file, as busted's junit does.
        let file = dir.appendingPathComponent("report.json").path
        let json = try Self.cdscript(["-o", "json", "-Xoutput", file], in: dir)
        #expect(json.stdout.isEmpty && json.status == 1)
        #expect(try String(contentsOfFile: file, encoding: .utf8).hasPrefix("{\"duration\":"))
    }

    @Test("busted's options cdscript does not support are refused with exit 64, naming them and what to use; --help lists every option")
    func refusedAndHelp() throws {
        let dir = try Self.project(Self.jsonProject)
        let refused: [([String], String)] = [
            (["--lang", "de"], "--lang de: cdscript test's messages are in English only"),
            (["--loaders", "moonscript"], "--loaders moonscript: cdscript test runs Lua test files only"),
            (["--lazy"], "--lazy: cdscript test keeps setup and teardown strict"),
            (["-o", "TAP", "-Xoutput", "--fancy"], "-Xoutput --fancy"),
            (["--tags", "x", "--exclude-tags", "x"], "--tags and --exclude-tags both name `x`"),
        ]
        for (arguments, message) in refused {
            let result = try Self.cdscript(arguments, in: dir)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
        let accepted = try Self.cdscript(["--lua", "luajit", "--no-coverage", "--no-auto-insulate", "-v", "--defer-print", "spec/a_spec.lua"], in: dir)
        #expect(accepted.status == 1)
        #expect(accepted.stderr == "cdscript test: --lua luajit is not used: cdscript runs its own Lua 5.4\n")
        #expect(accepted.stdout.hasSuffix("2 passed, 3 failed\n"))
        let help = try Self.cdscript(["--help"], in: dir)
        for option in ["--verbose", "--output", "-Xoutput", "--pattern", "--exclude-pattern", "--lpath", "--cpath", "--helper", "--run",
                       "-e <STATEMENT>", "--shuffle", "--shuffle-files", "--shuffle-tests", "--seed", "--sort", "--repeat", "--no-keep-going",
                       "--list", "--coverage", "--no-coverage", "--lua", "--filter", "--filter-out", "--tags", "--exclude-tags",
                       "--defer-print", "--suppress-pending", "--no-auto-insulate", "--lang", "--loaders"] {
            #expect(help.stdout.contains(option), "--help does not list \(option)")
        }
        // Refused whatever their value: not offered (issue 39), though still named when given.
        #expect(!help.stdout.contains("--lazy") && !help.stdout.contains("--enable-sound"))
    }
}

extension BustedCommandLineTests {
    @Test("busted.subscribe gets busted's events as its mediator sends them: a channel, then its parents; failures and errors apart")
    func events() throws {
        let dir = try Self.project([
            "spec/events_spec.lua": """
                local busted = require("busted")
                local seen = {}
                busted.subscribe({ "failure" }, function(element) seen[#seen + 1] = "failure " .. element.name return nil, true end)
                busted.subscribe({ "error", "it" }, function(element) seen[#seen + 1] = "error " .. element.name return nil, true end)
                busted.subscribe({ "test" }, function(element) seen[#seen + 1] = "test " .. element.name return nil, true end)
                describe("events", function()
                  it("fails", function() assert.is_true(false) end)
                  it("errors", function() error("x") end)
                  it("saw them", function()
                    assert.are.same({ "test fails", "failure fails", "test fails", "test errors", "error errors", "test errors", "test saw them" }, seen)
                  end)
                end)
                """,
        ])
        let outcomes = try Self.sameAsBusted([], in: dir)
        #expect(outcomes.map(\.status) == ["fail", "fail", "pass"])
    }
}

extension BustedCommandLineTests {
    @Test(".busted's output, lpath, exclude-tags, filter-out, shuffle-files, shuffle-tests and seed keys act as busted's; -f FILE and -C DIR find another configuration and folder")
    func moreKeys() throws {
        let project = BustedCompatTests.project
        let dir = try Self.project([
            "alt.busted": """
                return {
                  _all = { output = "TAP", seed = 5, lpath = "\(project.path)/?.lua" },
                  default = { ROOT = { "\(project.path)/spec" }, pattern = "_check", ["shuffle-files"] = true, ["shuffle-tests"] = true,
                              ["filter-out"] = "spies", ["exclude-tags"] = "slow" },
                }
                """,
        ])
        // busted reads .busted from the folder it runs in: give it the same file there.
        try FileManager.default.copyItem(at: dir.appendingPathComponent("alt.busted"), to: dir.appendingPathComponent(".busted"))
        let busted = try Self.busted([], in: dir)
        let cdscript = try Self.cdscript(["-f", "alt.busted"], in: dir)
        let expected = BustedCompatTests.bustedOutcomes(busted.stdout)
        #expect(expected.count > 10, "\(busted.stdout)\(busted.stderr)")
        #expect(BustedCompatTests.cdscriptOutcomes(cdscript.stdout) == expected, "\(cdscript.stdout)\(cdscript.stderr)")
        #expect(cdscript.stdout.hasPrefix("TAP version 13\n"))
        // -C: the run happens in that folder, with its .busted.
        let elsewhere = try Self.cdscript(["-C", dir.path], in: BinaryRunner.packageRoot)
        #expect(BustedCompatTests.cdscriptOutcomes(elsewhere.stdout) == expected)
    }
}

extension BustedCommandLineTests {
    /// A handler as projects write them: on busted's base handler, reporting at the suite's end.
    static let handler = """
        return function(options)
          local busted = require 'busted'
          local handler = require 'busted.outputHandlers.base'()
          busted.subscribe({ 'suite', 'end' }, function()
            print(("%d successes / %d failures / %d errors / %d pending"):format(#handler.successes, #handler.failures, #handler.errors, #handler.pendings))
            for _, e in ipairs(handler.failures) do print("failure: " .. e.name .. ": " .. tostring(e.message)) end
            for _, e in ipairs(handler.errors) do print("error: " .. e.name .. ": " .. tostring(e.message)) end
            print("arguments: " .. table.concat(options.arguments, ","))
            return nil, true
          end)
          return handler
        end
        """

    @Test("-o FILE.lua and -o MODULE load an output handler written in Lua as busted does; it writes what it writes under busted")
    func luaHandler() throws {
        var files = Self.jsonProject
        files["spec/c_spec.lua"] = "pending('later')\n"
        files["report.lua"] = Self.handler
        let dir = try Self.project(files)
        let busted = try Self.busted(["-o", "./report.lua", "-Xoutput", "a,b"], in: dir)
        let cdscript = try Self.cdscript(["-o", "./report.lua", "-Xoutput", "a,b"], in: dir)
        #expect(cdscript.status == 1)
        #expect(cdscript.stdout == busted.stdout, "\(cdscript.stderr)")
        #expect(cdscript.stdout.hasPrefix("2 successes / 2 failures / 3 errors / 1 pending\n"))
        // busted's own plainTerminal, by module name: the same text but for the time it took.
        func untimed(_ text: String) -> String { text.replacing(/\ : [0-9.e-]+ seconds/, with: "") }
        let bustedPlain = try Self.busted(["-o", "plainTerminal"], in: dir)
        let cdscriptPlain = try Self.cdscript(["-o", "busted.outputHandlers.plainTerminal"], in: dir)
        #expect(untimed(cdscriptPlain.stdout) == untimed(bustedPlain.stdout), "\(cdscriptPlain.stderr)")
        #expect(cdscriptPlain.stdout.contains("2 successes / 2 failures / 3 errors / 1 pending"))
        // One that does not load: said, exit 64, nothing run.
        let missing = try Self.cdscript(["-o", "no_such_handler"], in: dir)
        #expect(missing.status == 64)
        #expect(missing.stderr.hasPrefix("cdscript test: -o no_such_handler: cannot load the output handler no_such_handler: "), "\(missing.stderr)")
    }
}

extension BustedCommandLineTests {
    @Test("-c/--coverage: luacov.stats.out and lcov.info (read by lcov --summary) for the project's files, not the specs; .luacov's exclude")
    func coverage() throws {
        let dir = try Self.project([
            "src/calc.lua": """
                local M = {}
                function M.add(a, b)
                  return a + b
                end
                function M.unused(x)
                  if x then
                    return 1
                  end
                  return 2
                end
                return M
                """,
            "src/skip_me.lua": "return { loaded = true }\n",
            "spec/calc_spec.lua": """
                local calc = require("calc")
                local skipped = require("skip_me")
                it("adds", function() assert.are.equal(3, calc.add(1, 2)) end)
                it("adds again", function() assert.are.equal(5, calc.add(2, 3)) end)
                it("loops forever", function() while true do end end)
                """,
            ".luacov": "return { exclude = { 'skip_me$' } }\n",
        ])
        let result = try Self.cdscript(["-c", "--budget", "1000000"], in: dir)
        #expect(result.status == 1)
        // The budget still stops a runaway test with the line hook on.
        #expect(result.stdout.contains("instruction budget exceeded"), "\(result.stdout)")
        #expect(result.stdout.hasSuffix("2 passed, 1 failed\n"))
        // Named as busted with luacov names it; the lines luacov counts (not the lone `end`s).
        #expect(result.stderr.contains("src/calc.lua     5/8     62.50%"), "\(result.stderr)")
        let stats = try String(contentsOf: dir.appendingPathComponent("luacov.stats.out"), encoding: .utf8)
        // Lines 4 and 10 (`end`) hold the closures the function statements make; line 8 holds no code.
        #expect(stats == "11:src/calc.lua\n1 1 2 1 1 0 0 0 0 1 1 \n", "\(stats)")
        let lcov = try BustedCompatTests.run("/usr/bin/lcov", ["--summary", "lcov.info"], in: dir)
        #expect(lcov.status == 0, "\(lcov.stderr)")
        #expect((lcov.stdout + lcov.stderr).contains("lines......: 62.5% (5 of 8 lines)"), "\(lcov.stdout)\(lcov.stderr)")
        // .busted's coverage key too.
        try "return { default = { coverage = true } }".write(to: dir.appendingPathComponent(".busted"), atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(at: dir.appendingPathComponent("lcov.info"))
        _ = try Self.cdscript(["--budget", "1000000", "spec/calc_spec.lua"], in: dir)
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("lcov.info").path))
    }
}
