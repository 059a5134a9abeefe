import Testing
@testable import ScriptTesting

@Suite("A file that does not load counts as one failure and says why")
struct LoadErrorTests {
    @Test("a syntax error gives FILE:LINE and Lua's message; no test runs")
    func syntaxError() {
        let path = Fixture.path("syntax_error.lua")
        let report = TestRunner().run(file: path)
        #expect(report.results.isEmpty)
        #expect(report.loadError?.hasPrefix("\(path):3:") == true)
        #expect(TestSummary([report]) == TestSummary(passed: 0, failed: 1, errors: 1))
    }

    @Test("an error in a describe's body fails that block, as in busted; its tests do not run and the file goes on")
    func describeError() throws {
        let path = Fixture.path("runtime_error.lua")
        let report = TestRunner().run(file: path)
        #expect(report.loadError == nil)
        #expect(report.results.map(\.name) == ["collection (describe)", "after > still runs"])
        #expect(report.results.map(\.status) == [.failed, .passed])
        let failed = report.results[0]
        #expect(failed.location == "\(path):4")
        #expect(failed.message?.hasPrefix("\(path):4: attempt to index a nil value") == true)
        #expect(failed.traceback?.contains("\(path):4:") == true)
        #expect(failed.traceback?.contains(TestPrelude.sourceMarker) == false)
    }

    @Test("an error in the file's main chunk is a load error: its message and traceback")
    func runtimeError() throws {
        let path = try Fixture.write("""
            it("is declared", function() end)
            local config = nil
            local _ = config.missing
            """)
        let report = TestRunner().run(file: path)
        #expect(report.results.isEmpty)
        let message = report.loadError ?? ""
        #expect(message.hasPrefix("\(path):3: attempt to index a nil value"))
        #expect(message.contains("stack traceback:"))
        #expect(message.contains("\(path):3: in main chunk"))
        #expect(!message.contains(TestPrelude.sourceMarker))
    }

    @Test("a missing file")
    func missingFile() {
        let report = TestRunner().run(file: "/nonexistent/cdscript/none_spec.lua")
        #expect(report.loadError == "cannot read script /nonexistent/cdscript/none_spec.lua: no such file")
        #expect(TestSummary([report]).line == "0 passed, 1 failed")
    }

    @Test("the report for people shows the load error under the file")
    func human() {
        let path = Fixture.path("syntax_error.lua")
        let text = HumanReporter().render([TestRunner().run(file: path)])
        #expect(text.contains("\(path)\n  ✱ (file did not load)\n      \(path):3:"))
        #expect(text.hasSuffix("\n0 passed, 1 failed\n"))
    }
}
