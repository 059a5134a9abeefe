import LuaHost
import Testing
@testable import ScriptTesting

@Suite("An instruction budget turns a runaway test into a failure")
struct BudgetTests {
    @Test("a test or a hook that loops forever fails with the budget's message; the others pass")
    func runaway() {
        let runner = TestRunner()
        runner.limits = ScriptLimits(instructionBudget: 2_000_000)
        let report = runner.run(file: Fixture.path("runaway.lua"))
        #expect(report.results.map(\.status) == [.passed, .failed, .failed, .passed])
        #expect(report.results[1].message?.contains("instruction budget exceeded") == true)
        #expect(report.results[2].message?.contains("instruction budget exceeded") == true)
        #expect(report.results[1].traceback?.contains("run_limited") == false)
        // Stopped by the budget is not an assertion that failed: errors, as busted counts them.
        #expect(report.results.map(\.isError) == [false, true, true, false])
        #expect(TestSummary([report]) == TestSummary(passed: 2, failed: 2, errors: 2))
    }
}
