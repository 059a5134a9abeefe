import Foundation
import Testing
@testable import ScriptTesting

/// busted's line between failures and errors: only an assertion that does not
/// hold, inside an `it`, is a failure; everything else that raises is an error.
@Suite("Errors are not failures")
struct ErrorKindTests {
    @Test("assertions fail; error(), runtime errors, hooks and finally raise errors")
    func kinds() throws {
        let report = try Fixture.run("""
            describe("kinds", function()
              it("luassert", function() assert.are.equal(1, 2) end)
              it("plain assert", function() assert(false, "no") end)
              it("expect", function() expect(1).to_be(2) end)
              it("busted.fail", function() require("busted").fail("said so") end)
              it("error", function() error("boom") end)
              it("runtime", function() local t = nil; return t.x end)
              it("finally", function() finally(function() error("late") end) end)
              it("passes", function() end)
            end)
            describe("hooks", function()
              before_each(function() error("before") end)
              it("never runs", function() end)
            end)
            """)
        #expect(report.results.map(\.status) == Array(repeating: .failed, count: 7) + [.passed, .failed])
        #expect(report.results.map(\.isError) == [false, false, false, false, true, true, true, false, true])
        #expect(report.results.last?.descriptor == "before_each")
        #expect(TestSummary([report]) == TestSummary(passed: 1, failed: 8, errors: 4))
        #expect(TestSummary([report]).line == "1 passed, 8 failed")
    }

    @Test("a describe body or setup that raises is an error of its block")
    func blocks() throws {
        let report = try Fixture.run("""
            describe("body", function() error("in the body") end)
            describe("with setup", function()
              setup(function() error("in setup") end)
              it("not run", function() end)
            end)
            """)
        #expect(report.results.map(\.name) == ["body (describe)", "with setup (setup)"])
        #expect(report.results.map(\.isError) == [true, true])
        #expect(report.results.map(\.descriptor) == ["describe", "setup"])
    }

    @Test("JSON: failures and errors apart, named as busted names them")
    func json() throws {
        let report = try Fixture.run("""
            describe("g", function()
              it("fails", function() assert.is_true(false) end)
              it("errors", function() error("boom") end)
              pending("later")
            end)
            """)
        let text = JSONReport.json([report], duration: 0.5)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        func names(_ key: String) -> [String] { (document[key] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String } }
        #expect(names("failures") == ["g fails"])
        #expect(names("errors") == ["g errors"])
        #expect(names("pendings") == ["g later"])
        #expect(names("successes").isEmpty)
        #expect(document["duration"] as? Double == 0.5)
        #expect(JSONReport.json([report], duration: 0.5) == text)
    }
}
