import Foundation
import Testing

/// Issue 38's differing specs, each run by real `busted` (2.1.1 on Lua 5.4) and
/// by `cdscript test` on the same files (Fixtures/busted_parity): the same
/// results, in the same order, under the same TAP names, with the same exit code.
@Suite("busted parity: sugar, arg, expose in insulate, the busted module, empty paths, names, auto-insulate")
struct BustedParityTests {
    static let project = BinaryRunner.packageRoot.appendingPathComponent("Tests/EndToEndTests/Fixtures/busted_parity")

    /// busted's and cdscript's TAP of the same run; the lines must be equal (names as busted writes them).
    @discardableResult
    static func sameAsBusted(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> [BustedCompatTests.Outcome] {
        let busted = try BustedCompatTests.run("/usr/bin/lua5.4", ["/usr/bin/busted", "-o", "TAP"] + arguments, in: project)
        let cdscript = try BustedCompatTests.run(BinaryRunner.binary.path, ["test", "-o", "TAP"] + arguments, in: project)
        let expected = BustedCompatTests.bustedOutcomes(busted.stdout)
        #expect(!expected.isEmpty, "busted ran nothing: \(busted.stdout)\(busted.stderr)", sourceLocation: sourceLocation)
        #expect(BustedCompatTests.cdscriptOutcomes(cdscript.stdout) == expected,
                "cdscript:\n\(cdscript.stdout)\(cdscript.stderr)\nbusted:\n\(busted.stdout)\(busted.stderr)", sourceLocation: sourceLocation)
        let tapLines = { (text: String) in text.split(separator: "\n").filter { $0.hasPrefix("ok ") || $0.hasPrefix("not ok ") } }
        #expect(tapLines(cdscript.stdout) == tapLines(busted.stdout), "TAP names differ", sourceLocation: sourceLocation)
        #expect(cdscript.status == (busted.status == 0 ? 0 : 1), "exit \(cdscript.status) against busted's \(busted.status)", sourceLocation: sourceLocation)
        return expected
    }

    @Test("describe 'name' (function() end) and it 'name' (function() end): busted's sugar declares the same tests")
    func sugar() throws {
        let outcomes = try Self.sameAsBusted(["spec/sugar_spec.lua"])
        #expect(outcomes.map(\.name) == ["sugar passes", "sugar fails", "sugar nested runs", "sugar it", "sugar describe inside an unnamed describe", "is pending"])
    }

    @Test("inside a test or a hook: blocks, tests and hooks refused with busted's message; finally only in tests, a spy accepted (busted's core_spec)")
    func contexts() throws {
        let outcomes = try Self.sameAsBusted(["spec/context_spec.lua"])
        #expect(outcomes.count == 5 && outcomes.allSatisfy { $0.status == "pass" })
    }

    @Test("arg has the interpreter at -1 at the top level and in blocks, and that interpreter runs a plain Lua file with arguments, stdin and exit code as lua5.4")
    func interpreterInArg() throws {
        let outcomes = try Self.sameAsBusted(["spec/arg_spec.lua"])
        #expect(outcomes.count == 3 && outcomes.allSatisfy { $0.status == "pass" })
    }

    @Test("the interpreter in arg (the lowest index, as teal's specs find it) runs -e and a file with arguments: output, os.exit codes, an error's message and exit 1, stdin")
    func interpreterRunsLikeLua() throws {
        let outcomes = try Self.sameAsBusted(["spec/interpreter_spec.lua"])
        #expect(outcomes.count == 6 && outcomes.allSatisfy { $0.status == "pass" })
    }

    @Test("what an expose writes to _G and package.loaded reaches the blocks after it, through the insulate around it")
    func exposeInsideInsulate() throws {
        let outcomes = try Self.sameAsBusted(["spec/expose_spec.lua"])
        #expect(outcomes.count == 11 && outcomes.allSatisfy { $0.status == "pass" })
    }

    @Test("require 'busted' is read-only and unsubscribe(id, channel) stops delivery")
    func bustedModule() throws {
        let outcomes = try Self.sameAsBusted(["spec/busted_module_spec.lua"])
        #expect(outcomes.count == 3 && outcomes.allSatisfy { $0.status == "pass" })
    }

    @Test("TAP names: blocks joined by spaces, tags kept, pending as # SKIP NAME, a broken describe and a failing teardown named as busted names them")
    func names() throws {
        let outcomes = try Self.sameAsBusted(["spec/names_spec.lua"])
        #expect(outcomes.map(\.name) == ["outer inner passes #tagged", "outer inner fails", "outer inner raises", "outer comes later",
                                         "outer broken", "after teardown passes first", "after teardown teardown"])
    }

    @Test("a file that raises as it loads is named `suite FILE`, as busted names it")
    func loadErrorName() throws {
        let outcomes = try Self.sameAsBusted(["load/raises_spec.lua", "spec/sugar_spec.lua"])
        #expect(outcomes.first == BustedCompatTests.Outcome(name: "suite load/raises_spec.lua", status: "fail"))
    }

    @Test("lua_cliargs's CI line: -v --lpath= --cpath= -Xoutput --color is taken, as busted takes it")
    func emptyPaths() throws {
        try Self.sameAsBusted(["-v", "--lpath=", "--cpath=", "-Xoutput", "--color", "spec/sugar_spec.lua"])
    }

    @Test("with auto-insulate (the default) a file sees nothing another left; with --no-auto-insulate it sees its modules and _G, not its own globals")
    func autoInsulate() throws {
        let files = ["insulation/a_spec.lua", "insulation/b_spec.lua"]
        let insulated = try Self.sameAsBusted(files)
        #expect(insulated.map(\.status) == ["pass", "fail", "fail", "pass"])
        let shared = try Self.sameAsBusted(["--no-auto-insulate"] + files)
        #expect(shared.allSatisfy { $0.status == "pass" } && shared.count == 4)
    }

    @Test(".busted's auto-insulate = false shares the state as --no-auto-insulate does")
    func autoInsulateInBustedFile() throws {
        let dir = try BustedCommandLineTests.project([
            ".busted": "return { default = { [\"auto-insulate\"] = false } }\n",
            "spec/a_spec.lua": try String(contentsOf: Self.project.appendingPathComponent("insulation/a_spec.lua"), encoding: .utf8),
            "spec/b_spec.lua": try String(contentsOf: Self.project.appendingPathComponent("insulation/b_spec.lua"), encoding: .utf8),
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try BustedCompatTests.run(BinaryRunner.binary.path, ["test", "-o", "TAP", "spec/a_spec.lua", "spec/b_spec.lua"], in: dir)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }

    @Test("-o junit is laid out as busted's: one testsuite \"Run 1 of 1\", testcases named by busted's full name with FILE:LINE as classname; --cdscript-names gives one testsuite per file")
    func junitLayout() throws {
        let busted = try BustedCompatTests.run(BinaryRunner.binary.path, ["test", "-o", "junit", "spec/names_spec.lua"], in: Self.project)
        #expect(busted.stdout.contains("<testsuites tests=\"5\" errors=\"3\" failures=\"1\" skip=\"1\">\n  <testsuite name=\"Run 1 of 1\""), "\(busted.stdout)")
        #expect(busted.stdout.contains("<testcase classname=\"spec/names_spec.lua:5\" name=\"outer inner passes #tagged\"/>"))
        let old = try BustedCompatTests.run(BinaryRunner.binary.path, ["test", "-o", "junit", "--cdscript-names", "spec/names_spec.lua"], in: Self.project)
        #expect(old.stdout.contains("<testsuite name=\"spec/names_spec.lua\""))
        #expect(old.stdout.contains("name=\"outer &gt; inner &gt; passes #tagged\""))
        let tap = try BustedCompatTests.run(BinaryRunner.binary.path, ["test", "--tap", "--cdscript-names", "spec/names_spec.lua"], in: Self.project)
        #expect(tap.stdout.contains("ok 1 - spec/names_spec.lua: outer > inner > passes \\#tagged\n"), "\(tap.stdout)")
    }
}
