import Testing
@testable import ScriptTesting

@Suite("A failing test is reported with FILE:LINE, expected and actual, and a traceback")
struct FailureReportTests {
    let path = Fixture.path("failing_assertions.lua")
    let report: FileReport

    init() {
        report = TestRunner().run(file: path)
    }

    func result(_ name: String) -> TestResult {
        report.results.first { $0.name == "failing > " + name }!
    }

    @Test("every test of the file runs, in declaration order, and only the passing one passes")
    func allRun() {
        #expect(report.loadError == nil)
        #expect(report.results.map(\.name) == [
            "to_be", "to_equal", "to_be_near", "to_throw", "never", "assert", "error in a helper", "prints, then fails", "passes",
        ].map { "failing > " + $0 })
        #expect(report.results.map(\.status) == Array(repeating: .failed, count: 8) + [.passed])
        #expect(TestSummary([report]).line == "1 passed, 8 failed")
    }

    @Test("to_be: the assertion's line, the expected and the actual value")
    func toBe() {
        let r = result("to_be")
        #expect(r.location == "\(path):4")
        #expect(r.message == "expected 1 to be 2")
        #expect(r.expected == "2")
        #expect(r.actual == "1")
        #expect(r.line == 3)
    }

    @Test("to_equal shows both tables in full, keys sorted")
    func toEqual() {
        let r = result("to_equal")
        #expect(r.location == "\(path):7")
        #expect(r.expected == "{1, {a = \"y\"}}")
        #expect(r.actual == "{1, {a = \"x\"}}")
    }

    @Test("to_be_near, to_throw and never say what was wanted")
    func otherMatchers() {
        #expect(result("to_be_near").message == "expected 1.5 to be within 0.1 of 1")
        #expect(result("to_be_near").expected == "1 +/- 0.1")
        #expect(result("to_throw").message == "expected the function to raise an error matching \"boom\", nothing was raised")
        #expect(result("to_throw").location == "\(path):13")
        #expect(result("never").message == "expected \"same\" not to be \"same\"")
        #expect(result("never").expected == "not \"same\"")
    }

    @Test("a plain assert and an error in a helper fail with their own line")
    func plainErrors() {
        let a = result("assert")
        #expect(a.location == "\(path):19")
        #expect(a.message == "\(path):19: one is not two" || a.message == "one is not two")
        let e = result("error in a helper")
        #expect(e.location == "\(path):22")
        #expect(e.message == "\(path):22: deep trouble")
        #expect(e.traceback?.contains("\(path):22:") == true)
        #expect(e.traceback?.contains("\(path):23:") == true)
    }

    @Test("tracebacks show the test's frames and none of the runner's")
    func tracebacks() {
        for r in report.results where r.status == .failed {
            let traceback = r.traceback ?? ""
            #expect(traceback.hasPrefix("stack traceback:"), "\(r.name)")
            #expect(!traceback.contains(TestPrelude.sourceMarker), "\(r.name)")
            #expect(!traceback.contains("xpcall"), "\(r.name)")
        }
    }

    @Test("what a failing test printed is kept for its report")
    func output() {
        #expect(result("prints, then fails").output == ["diagnostic line"])
        #expect(result("to_be").output.isEmpty)
    }

    @Test("the report for people: one line per test with a mark, details under failures, totals last")
    func humanReport() {
        let lines = HumanReporter().render([report]).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == path)
        #expect(lines.contains("  ✗ failing > to_be"))
        #expect(lines.contains("  ✓ failing > passes"))
        #expect(lines.contains("      \(path):4: expected 1 to be 2"))
        #expect(lines.contains("      expected: 2"))
        #expect(lines.contains("      actual:   1"))
        #expect(lines.contains("      output:"))
        #expect(lines.dropLast().last == "1 passed, 8 failed")
        #expect(lines.last == "")
    }
}
