import CountdownCore
import Foundation
import Testing
@testable import ScriptTesting

@Suite("Persistent countdowns in tests: a fresh store per test, other processes, kill, reboot")
struct TestStoreTests {
    @Test("persist = true works from the first test of a file, and nothing stored reaches the next test")
    func freshStorePerTest() throws {
        let report = try Fixture.run("""
            it("stores", function()
              countdown.start{ id = "a", seconds = 60, persist = true }
              clock.advance(10)
              local h = countdown.fetch("a")
              assert(h and h:remaining() == 50, "fetched: " .. tostring(h and h:remaining()))
            end)
            it("starts empty", function()
              local h, why = countdown.fetch("a")
              assert(h == nil and why == "unknown", "found: " .. tostring(why))
              assert(#process.stored() == 0)
            end)
            it("stores again, with no error", function()
              countdown.start{ id = "a", seconds = 60, persist = true }
            end)
            """)
        #expect(report.results.map(\.status) == [.passed, .passed, .passed], "\(report.results.map { $0.message ?? "" })")
    }

    @Test("the results do not depend on the order of the tests")
    func orderIndependent() throws {
        let path = try Fixture.write("""
            for i = 1, 6 do
              it("test " .. i, function()
                assert(#process.stored() == 0, "left by another test")
                countdown.start{ id = "x" .. (i % 2), seconds = i, persist = true }
                countdown.start{ id = "shared", seconds = 10 * i, persist = true }
                clock.advance(0.5)
                assert(countdown.fetch("shared"):remaining() == 10 * i - 0.5)
              end)
            end
            """)
        for seed: Int64 in [1, 2, 3] {
            let runner = TestRunner()
            runner.shuffleTests = true
            runner.seed = seed
            let report = runner.run(file: path)
            #expect(report.results.count == 6)
            #expect(report.results.allSatisfy { $0.status == .passed }, "seed \(seed): \(report.results.map { $0.message ?? "" })")
        }
    }

    @Test("a script killed mid-cooldown and started again goes on with the remaining time, to a tenth")
    func killAndRestart() throws {
        let script = try Fixture.write("""
            local h = countdown.fetch("cool", { on_tick = function(t) print(("%.1f"):format(t.remaining)) end })
            if not h then
              countdown.start{ id = "cool", seconds = 60, persist = true, on_tick = function(t) print(("%.1f"):format(t.remaining)) end }
            end
            """, name: "cooldown.lua")
        let report = try Fixture.run("""
            it("restarts", function()
              local app = process.start("\(script)")
              clock.advance(12.34)
              app:kill()
              clock.advance(3)
              app:restart()
              assert(app:printed()[1] == "44.7", app:printed()[1])
              assert(math.abs(app:countdown("cool"):remaining() - 44.66) < 1e-6)
            end)
            it("reboots", function()
              local app = process.start("\(script)")
              clock.advance(10)
              process.reboot(20)
              assert(app:state() == "killed")
              app:restart()
              assert(app:printed()[1] == "30.0", app:printed()[1])
            end)
            it("suspends and resumes", function()
              local app = process.start("\(script)")
              clock.advance(1.5)
              app:suspend()
              clock.advance(5)
              local before = #app:ticks()
              app:resume()
              local ticks = app:ticks()
              assert(#ticks == before + 1, #ticks .. " ticks")
              assert(ticks[#ticks].missed == 4 and ticks[#ticks].remaining == 53.5)
            end)
            """)
        #expect(report.results.map(\.status) == [.passed, .passed, .passed], "\(report.results.map { $0.message ?? "" })")
    }

    @Test("a second process follows the test's countdown; its control reaches the test's, its ticks and ends are seen")
    func secondProcess() throws {
        let report = try Fixture.run("""
            it("follows", function()
              local done = {}
              local h = countdown.start{ id = "exam", seconds = 100, persist = true, on_done = function(_, why) done[#done + 1] = why end }
              clock.advance(10)
              local other = process.follow("exam", 10)
              local remote = other:countdown("exam")
              assert(remote:remaining() == 90)
              remote:append(30)
              assert(h:remaining() == 120, "here: " .. h:remaining())
              remote:pause()
              assert(h:state() == "paused")
              clock.advance(50)
              h:resume() -- this process's control reaches the other
              assert(remote:state() == "running")
              clock.advance(120)
              assert(#done == 1 and done[1] == "finished")
              local ends = other:ends()
              assert(#ends == 1 and ends[1].reason == "finished" and ends[1].id == "exam")
              assert(#other:ticks() >= 12, #other:ticks() .. " ticks")
            end)
            """)
        #expect(report.results.map(\.status) == [.passed], "\(report.results.map { $0.message ?? "" })")
    }

    @Test("process calls name the test's line; a killed process refuses to run; only plain values cross")
    func errors() throws {
        let script = try Fixture.write(#"countdown.start{ id = "x", seconds = 5 }"#, name: "plain.lua")
        let path = try Fixture.write("""
            it("killed", function()
              local p = process.start("\(script)")
              p:kill()
              p:run("return 1")
            end)
            it("function", function()
              local p = process.start("\(script)")
              p:run("return print")
            end)
            it("inside a hook", function()
              countdown.start{ seconds = 1, on_done = function() process.start("\(script)") end }
              clock.advance(1)
            end)
            """, name: "errors_spec.lua")
        let report = TestRunner().run(file: path)
        #expect(report.results.map(\.status) == [.failed, .failed, .failed])
        #expect(report.results[0].message == "\(path):4: run: process 1 (\(script)) was killed")
        #expect(report.results[1].message == "\(path):8: a function cannot pass between processes (only nil, booleans, numbers, strings and tables of them)")
        #expect(report.results[2].message?.contains("cannot be called while a hook runs") == true, "\(report.results[2].message ?? "")")
    }

    @Test("a process whose finalizer prints and calls the library goes quietly at the test's end; its stored countdown does not reach the next test")
    func finalizerAtTheEnd() throws {
        let script = try Fixture.write("""
            KEEP = setmetatable({}, { __gc = function() print("bye") countdown.start{ seconds = 1 } end })
            countdown.start{ id = "k", seconds = 100, persist = true }
            """, name: "finalizer.lua")
        let report = try Fixture.run("""
            it("starts, is killed, starts again", function()
              local p = process.start("\(script)")
              clock.advance(1)
              p:restart()
              assert(p:countdown("k"):remaining() == 100) -- a new start, not a fetch
            end)
            it("next", function() assert(#process.stored() == 0) end)
            """)
        #expect(report.results.map(\.status) == [.passed, .passed], "\(report.results.map { $0.message ?? "" })")
    }

    @Test("with a store of the run's own, each test works under a prefix the spec never sees, removed after it")
    func sharedStorePrefix() throws {
        let shared = InMemoryCountdownStore()
        try shared.save(StoredCountdown(id: "a", state: .running, kind: .duration, wallDeadline: 1, every: Time.nanosecondsPerSecond, total: 1, bootID: nil, bootDeadline: nil, updatedAt: 0))
        let runner = TestRunner()
        runner.store = shared
        let path = try Fixture.write("""
            it("one", function()
              assert(countdown.fetch("a") == nil, "saw another run's countdown")
              countdown.start{ id = "a", seconds = 60, persist = true }
              local stored = process.stored()
              assert(#stored == 1 and stored[1].id == "a", "listed " .. #stored)
              H_SEEN = true
            end)
            it("two", function()
              assert(countdown.fetch("a") == nil, "saw the last test's countdown")
            end)
            """)
        final class Spy: CountdownStoreBackend {
            let inner: InMemoryCountdownStore
            var savedIDs: [String] = []
            init(_ inner: InMemoryCountdownStore) { self.inner = inner }
            func load(id: String) throws -> StoredCountdown? { try inner.load(id: id) }
            func list() throws -> [StoredCountdown] { try inner.list() }
            func save(_ countdown: StoredCountdown) throws { savedIDs.append(countdown.id); try inner.save(countdown) }
            func delete(id: String) throws -> Bool { try inner.delete(id: id) }
            func modify<R>(id: String, _ change: (inout StoredCountdown?) -> R) throws -> R { try inner.modify(id: id, change) }
        }
        let spy = Spy(shared)
        runner.store = spy
        let report = runner.run(file: path)
        #expect(report.results.map(\.status) == [.passed, .passed], "\(report.results.map { $0.message ?? "" })")
        let prefix = runner.testStore.runPrefix
        #expect(spy.savedIDs.count == 1)
        #expect(spy.savedIDs.allSatisfy { $0.hasPrefix(prefix) && $0.hasSuffix("/a") }, "\(spy.savedIDs)")
        // Only the other run's countdown is left.
        #expect(try shared.list().map(\.id) == ["a"])
    }
}
