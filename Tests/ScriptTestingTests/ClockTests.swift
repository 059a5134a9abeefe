import CLua
import Testing
@testable import ScriptTesting

@Suite("The virtual clock in tests: limits, hook errors, a fresh clock per file")
struct ClockTests {
    @Test("run_all fails the test loudly at its limit; the default limit is 100000")
    func runAllLimit() {
        let path = Fixture.path("run_all_limit.lua")
        let report = TestRunner().run(file: path)
        #expect(report.results.map(\.status) == [.failed, .failed, .passed])
        #expect(report.results[0].message == "\(path):4: clock.run_all: run_all stopped after 50 ticks at 25.0 s with countdowns still active (raise `limit` or check for a countdown that restarts itself)")
        #expect(report.results[0].location == "\(path):4")
        #expect(report.results[1].message?.contains("run_all stopped after 100000 ticks") == true)
    }

    @Test("a hook that raises during advance fails that test with the hook's traceback; the next test runs")
    func hookErrorDuringAdvance() {
        let path = Fixture.path("hook_errors.lua")
        let report = TestRunner().run(file: path)
        #expect(report.results.map(\.status) == [.failed, .passed, .failed, .failed])
        let broken = report.results[0]
        #expect(broken.location == "\(path):9")
        #expect(broken.message?.contains("error in on_tick of countdown \"broken\": \(path):6: tick hook broke") == true)
        #expect(broken.message?.contains("never reached") == false)
        #expect(broken.traceback?.contains("\(path):6:") == true)
        #expect(broken.traceback?.contains("in field 'advance'") == true)
        #expect(broken.traceback?.contains("\(path):9:") == true)
    }

    @Test("a hook that raises outside a clock call (first tick, on_done of a cancel) fails the test")
    func hookErrorOutsideClockCalls() {
        let report = TestRunner().run(file: Fixture.path("hook_errors.lua"))
        #expect(report.results[2].message?.contains("first tick broke") == true)
        #expect(report.results[3].message?.contains("error in on_done") == true)
        #expect(report.results[3].message?.contains("done hook broke") == true)
    }

    @Test("each file starts at time 0 on its own clock, however far the last one went")
    func freshClockPerFile() throws {
        let far = try Fixture.write("""
            it("goes far", function() clock.advance(1e6) end)
            """)
        let zero = try Fixture.write("""
            it("starts at zero", function() expect(clock.now()).to_be(0) end)
            it("on the default wall clock", function() expect(clock.wall()).to_be(1798761600) end)
            """)
        let runner = TestRunner()
        #expect(runner.run(file: far).results.map(\.status) == [.passed])
        #expect(runner.run(file: zero).results.map(\.status) == [.passed, .passed])
    }

    @Test("load_script runs a script in the test's state and clock and returns its values")
    func loadScript() {
        let report = TestRunner().run(file: Fixture.path("load_script_user.lua"))
        #expect(report.results.map(\.status) == [.passed, .passed], "\(report.results.map { $0.message ?? "" })")
    }

    @Test("prepareHost sees every file's fresh host before the file runs (the seam for view.*)")
    func prepareHost() throws {
        let path = try Fixture.write("""
            it("sees what the host installed", function() expect(installed_by_host).to_be(true) end)
            """)
        let runner = TestRunner()
        var prepared = 0
        runner.prepareHost = { host in
            prepared += 1
            host.vm.state.push(true)
            host.setGlobal("installed_by_host")
        }
        #expect(runner.run(file: path).results.map(\.status) == [.passed])
        #expect(prepared == 1)
    }
}

@Suite("Tests of a file do not leak countdowns into each other")
struct IsolationTests {
    @Test("countdowns started at the top of a file or by a test are stopped, hooks not called, before the next test")
    func noLeaks() throws {
        let path = try Fixture.write("""
            countdown.start{ id = "top", seconds = 5, on_done = function() error("must not run") end }
            it("starts clean", function()
              expect(countdown.list()).to_equal({})
              countdown.start{ id = "left", seconds = 5, on_done = function() error("must not run") end }
            end)
            it("still clean", function()
              expect(countdown.get("left")).to_be(nil)
              clock.advance(10)
            end)
            """)
        let report = TestRunner().run(file: path)
        #expect(report.results.map(\.status) == [.passed, .passed], "\(report.results.map { $0.message ?? "" })")
    }
}
