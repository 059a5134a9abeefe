import Foundation
import Testing

/// Issue 51's differing results, each run by real `busted` (2.1.1 on Lua 5.4) and
/// by `cdscript test` on the same files (Fixtures/busted_fourth): no limit busted
/// lacks, module paths, errors against failures, load errors' messages, tests
/// declared without a body.
@Suite("busted parity, fourth round: no instruction budget, lpath, luassert's errors, load errors, it without a body")
struct BustedFourthRoundTests {
    static let project = BinaryRunner.packageRoot.appendingPathComponent("Tests/EndToEndTests/Fixtures/busted_fourth")

    static func busted(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, stdout: String, stderr: String) {
        try BustedCompatTests.run("/usr/bin/lua5.4", ["/usr/bin/busted"] + arguments, in: project, environment: environment)
    }

    static func cdscript(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, stdout: String, stderr: String) {
        try BustedCompatTests.run(BinaryRunner.binary.path, ["test"] + arguments, in: project, environment: environment)
    }

    /// The same TAP outcomes (names and verdicts) and exit code from both.
    @discardableResult
    static func sameOutcomes(_ arguments: [String], environment: [String: String] = [:],
                             sourceLocation: SourceLocation = #_sourceLocation) throws -> [BustedCompatTests.Outcome] {
        let busted = try busted(["-o", "TAP"] + arguments, environment: environment)
        let cdscript = try cdscript(["-o", "TAP"] + arguments, environment: environment)
        let expected = BustedCompatTests.bustedOutcomes(busted.stdout)
        #expect(!expected.isEmpty, "busted ran nothing: \(busted.stdout)\(busted.stderr)", sourceLocation: sourceLocation)
        #expect(BustedCompatTests.cdscriptOutcomes(cdscript.stdout) == expected,
                "cdscript:\n\(cdscript.stdout)\(cdscript.stderr)\nbusted:\n\(busted.stdout)\(busted.stderr)", sourceLocation: sourceLocation)
        #expect(cdscript.status == (busted.status == 0 ? 0 : 1), "exit \(cdscript.status) against busted's \(busted.status)", sourceLocation: sourceLocation)
        return expected
    }

    static func json(_ text: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    }

    /// Per entry of busted's JSON kind (`failures`, `errors`): the test's name and message.
    static func entries(_ document: [String: Any], _ kind: String) -> [String: String] {
        var out: [String: String] = [:]
        for entry in document[kind] as? [[String: Any]] ?? [] {
            out[entry["name"] as? String ?? "?"] = entry["message"] as? String ?? "?"
        }
        return out
    }

    @Test("a test that runs 240 M Lua instructions passes, as under busted: no instruction budget by default")
    func noBudgetByDefault() throws {
        let outcomes = try Self.sameOutcomes(["spec/long_spec.lua"])
        #expect(outcomes == [BustedCompatTests.Outcome(name: "a long test sums 120 M numbers", status: "pass")])
    }

    @Test("a test that loops forever is stopped by the CPU-time limit with an error that says how to raise it; the next test runs")
    func runawayStoppedByCPULimit() throws {
        let run = try Self.cdscript(["-o", "json", "--cpu-limit", "0.3", "runaway/runaway_spec.lua"])
        let document = Self.json(run.stdout)
        let errors = Self.entries(document, "errors")
        #expect(run.status == 1)
        #expect(errors["runaway loops forever"]?.contains("CPU time limit exceeded") == true, "\(run.stdout)\(run.stderr)")
        #expect(errors["runaway loops forever"]?.contains("--cpu-limit") == true)
        #expect((document["successes"] as? [Any])?.count == 1)
    }

    @Test("--lpath replaces busted's ./src default: require finds ./mod.lua where busted does, and the lpath's module; without it, ./src/mod.lua")
    func lpathReplacesDefault() throws {
        try Self.sameOutcomes(["--lpath=./paths/?.lua", "paths/lpath_spec.lua"])
        // Without --lpath, busted's default finds src/mod.lua first (and not the lpath's module).
        let outcomes = try Self.sameOutcomes(["paths/lpath_spec.lua"], environment: ["EXPECT_MOD": "src"])
        #expect(outcomes.map(\.status) == ["fail", "pass"])
    }

    @Test("a missing module's message names the same paths, in the same order, as busted's")
    func missingModuleMessage() throws {
        let busted = try Self.busted(["-o", "TAP", "load/missing_module_spec.lua"])
        let cdscript = try Self.cdscript(["-o", "json", "load/missing_module_spec.lua"])
        let tried = { (text: String) in text.split(separator: "\n").map { $0.trimmingPrefix("# ") }.filter { $0.hasPrefix("\tno f") }.map(String.init) }
        let message = Self.entries(Self.json(cdscript.stdout), "errors")["load/missing_module_spec.lua"] ?? ""
        #expect(!tried(busted.stdout).isEmpty, "\(busted.stdout)")
        // The JSON keeps the whole message, every path require tried.
        #expect(tried(message) == tried(busted.stdout), "cdscript:\n\(message)\nbusted:\n\(busted.stdout)")
    }

    @Test("TAP gives a file that did not load its whole message with its tabs, and no traceback, as busted")
    func loadErrorInTAP() throws {
        let run = try Self.cdscript(["-o", "TAP", "load/missing_module_spec.lua"])
        #expect(run.stdout.contains("\n    \tno field package.preload['no.such.module']\n"), "\(run.stdout)")
        #expect(!run.stdout.contains("stack traceback"), "\(run.stdout)")
    }

    @Test("an unknown assertion is an error and assert(false) a failure, as busted counts them; luassert's own error keeps luassert's prefix")
    func luassertErrorsAndFailures() throws {
        let busted = Self.json(try Self.busted(["-o", "json", "spec/assertion_kinds_spec.lua"]).stdout)
        let cdscript = Self.json(try Self.cdscript(["-o", "json", "spec/assertion_kinds_spec.lua"]).stdout)
        #expect(Set(Self.entries(cdscript, "errors").keys) == Set(Self.entries(busted, "errors").keys))
        #expect(Set(Self.entries(cdscript, "failures").keys) == Set(Self.entries(busted, "failures").keys))
        #expect(Self.entries(busted, "errors")["kinds asks for an assertion luassert does not have"] != nil)
        let matcher = "kinds gives a matcher a bad argument"
        #expect(Self.entries(cdscript, "failures")[matcher] == Self.entries(busted, "failures")[matcher],
                "cdscript: \(Self.entries(cdscript, "failures"))")
    }

    @Test("it(\"name\") without a function is dropped, as busted drops it; it \"name\" (fn) still runs")
    func nameOnlyDropped() throws {
        let outcomes = try Self.sameOutcomes(["spec/name_only_spec.lua"])
        #expect(outcomes.map(\.name) == ["names runs", "names gets its body later", "names is pending"])
    }

    @Test("-o gtest writes busted's lines, durations aside: passed, pending and failed tests, messages, closing counts")
    func gtestAsBusted() throws {
        let timeless = { (text: String) in text.replacing(/\(\d+\.\d\d ms( total)?\)/, with: "(T)") }
        for file in ["spec/name_only_spec.lua", "spec/assertion_kinds_spec.lua"] {
            let busted = try Self.busted(["-o", "gtest", file]), cdscript = try Self.cdscript(["-o", "gtest", file])
            #expect(timeless(cdscript.stdout) == timeless(busted.stdout), "cdscript:\n\(cdscript.stdout)\nbusted:\n\(busted.stdout)")
        }
    }
}
