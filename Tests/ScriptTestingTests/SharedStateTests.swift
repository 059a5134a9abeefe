import Foundation
import Testing
@testable import ScriptTesting

/// busted's `--no-auto-insulate`: the files of a run share one Lua state.
@Suite("Files that share a Lua state (--no-auto-insulate): what lasts from one file to the next, and what does not")
struct SharedStateTests {
    /// Two files run by one runner, the second reading what the first left.
    func runBoth(shared: Bool, first: String, second: String, statements: [String] = []) throws -> [FileReport] {
        let runner = TestRunner()
        runner.sharesState = shared
        runner.statements = statements
        return [runner.run(file: try Fixture.write(first, name: "a_spec.lua")),
                runner.run(file: try Fixture.write(second, name: "b_spec.lua"))]
    }

    @Test("a module and a _G global reach the next file only when the state is shared; the file's own globals never do")
    func whatLasts() throws {
        let first = """
            package.loaded.left_module = { n = 1 }
            _G.left_global = 1
            own_global = 1
            it("leaves", function() end)
            """
        let second = """
            it("module", function() assert.is_table(package.loaded.left_module) end)
            it("global", function() assert.are.equal(1, left_global) end)
            it("own", function() assert.is_nil(own_global) end)
            """
        let shared = try runBoth(shared: true, first: first, second: second)
        #expect(shared[1].results.map(\.status) == [.passed, .passed, .passed], "\(shared[1].results)")
        let fresh = try runBoth(shared: false, first: first, second: second)
        #expect(fresh[1].results.map(\.status) == [.failed, .failed, .passed])
    }

    @Test("each file starts its clock at 0 with no countdown left by the one before, and -e runs once")
    func freshClock() throws {
        let first = """
            it("moves time and leaves a countdown", function()
              clock.advance(100)
              countdown.start{ id = "left", seconds = 1000 }
              statement_runs = (statement_runs or 0)
            end)
            """
        let second = """
            it("starts at 0", function() assert.are.equal(0, clock.now()) end)
            it("has no countdown", function() assert.is_nil(countdown.get("left")) end)
            it("ran -e once", function() assert.are.equal(1, _G.e_count) end)
            """
        let reports = try runBoth(shared: true, first: first, second: second, statements: ["_G.e_count = (_G.e_count or 0) + 1"])
        #expect(reports[0].results.map(\.status) == [.passed], "\(reports[0].results)")
        #expect(reports[1].results.map(\.status) == [.passed, .passed, .passed], "\(reports[1].results)")
    }
}
