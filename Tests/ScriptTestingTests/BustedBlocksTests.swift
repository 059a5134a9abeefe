import Foundation
import Testing
@testable import ScriptTesting

@Suite("busted's blocks under cdscript test: hook failures, setup failures, discovery by .busted")
struct BustedBlocksTests {
    @Test("a failing before_each fails its test; after_each runs from the failing level outwards; the next test runs")
    func beforeEachFailure() throws {
        let report = try Fixture.run("""
            local log = {}
            describe("outer", function()
              before_each(function() log[#log + 1] = "outer before" end)
              after_each(function() log[#log + 1] = "outer after" end)
              describe("inner", function()
                before_each(function() error("before_each broke") end)
                after_each(function() log[#log + 1] = "inner after" end)
                describe("innermost", function()
                  before_each(function() log[#log + 1] = "never" end)
                  after_each(function() log[#log + 1] = "never either" end)
                  it("fails", function() log[#log + 1] = "body" end)
                end)
              end)
            end)
            it("saw the hooks", function()
              assert.are.same({ "outer before", "inner after", "outer after" }, log)
            end)
            """)
        #expect(report.results.map(\.status) == [.failed, .passed])
        #expect(report.results[0].name == "outer > inner > innermost > fails")
        #expect(report.results[0].message?.hasSuffix("before_each broke") == true)
    }

    @Test("a failing setup fails its block, whose tests do not run; teardown still runs")
    func setupFailure() throws {
        let report = try Fixture.run("""
            local torn = false
            describe("block", function()
              setup(function() error("no database") end)
              teardown(function() torn = true end)
              it("never runs", function() end)
            end)
            it("teardown ran", function() assert.is_true(torn) end)
            """)
        #expect(report.results.map(\.name) == ["block (setup)", "teardown ran"])
        #expect(report.results.map(\.status) == [.failed, .passed])
        #expect(report.declaredTests == 2)
    }

    @Test("a hook error while a block's setup runs (a first tick that raises) fails the block")
    func hookErrorInSetup() throws {
        let report = try Fixture.run("""
            describe("block", function()
              setup(function()
                countdown.start{ seconds = 2, on_tick = function() error("tick broke in setup") end }
              end)
              it("runs", function() end)
            end)
            """)
        #expect(report.results.map(\.name) == ["block (setup)"])
        #expect(report.results.first?.message?.contains("tick broke in setup") == true)
    }

    @Test("finally runs after the test body even when the body fails")
    func finallyRuns() throws {
        let report = try Fixture.run("""
            local cleaned = 0
            it("fails", function()
              finally(function() cleaned = cleaned + 1 end)
              error("body failed")
            end)
            it("cleaned up", function() assert.are.equal(1, cleaned) end)
            """)
        #expect(report.results.map(\.status) == [.failed, .passed])
    }

    @Test("pending(message) inside a test stops it and reports it as pending; after_each still runs")
    func pendingInsideATest() throws {
        let report = try Fixture.run("""
            local after = false
            describe("pending inside a test", function()
              after_each(function() after = true end)
              it("stops it", function()
                pending("not written yet")
                error("never reached")
              end)
              it("after_each ran", function() assert.is_true(after) end)
            end)
            """)
        #expect(report.results.map(\.status) == [.skipped, .passed])
    }

    @Test("a .busted file's ROOT and pattern pick the files")
    func bustedDiscovery() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-busted-\(UUID().uuidString)").path
        for file in ["spec/a_spec.lua", "spec/b_check.lua", "spec/notes.txt", "checks/c_check.lua"] {
            let path = root + "/" + file
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try "".write(toFile: path, atomically: true, encoding: .utf8)
        }
        try "return { _all = { pattern = '_check' }, default = { ROOT = { 'checks', 'spec' } } }".write(toFile: root + "/.busted", atomically: true, encoding: .utf8)
        let config = try #require(try BustedConfig.load(root + "/.busted"))
        #expect(config == BustedConfig(roots: ["checks", "spec"], patterns: ["_check"]))
        #expect(try TestDiscovery.files(in: config.roots.map { root + "/" + $0 }, config: config) == ["\(root)/checks/c_check.lua", "\(root)/spec/b_check.lua"])
        #expect(try TestDiscovery.files(in: [root + "/spec"], config: nil) == ["\(root)/spec/a_spec.lua"])
        #expect(try BustedConfig.load(root + "/none") == nil)
        try "return 42".write(toFile: root + "/.busted", atomically: true, encoding: .utf8)
        #expect(throws: TestDiscovery.Failure.self) { try BustedConfig.load(root + "/.busted") }
    }
}

@Suite(".busted tasks as busted merges them")
struct BustedConfigTests {
    @Test("the -r task (else default) wins over _all, key by key; a missing task is an error")
    func precedence() throws {
        let path = try Fixture.write("""
            return {
              _all = { lpath = "./lua/?.lua", pattern = "_all", verbose = true },
              default = { pattern = "_default", ROOT = { "spec", "more" } },
              ci = { pattern = "_ci", ["exclude-pattern"] = "fixture", seed = 7 },
            }
            """, name: ".busted")
        let standard = try #require(try BustedConfig.load(path))
        #expect(standard.patterns == ["_default"])
        #expect(standard.roots == ["spec", "more"])
        #expect(standard.text("lpath", "m") == "./lua/?.lua")
        #expect(standard.flag("verbose", "v") == true)
        let ci = try #require(try BustedConfig.load(path, run: "ci"))
        #expect(ci.patterns == ["_ci"])
        #expect(ci.roots.isEmpty)
        #expect(ci.list("exclude-pattern") == ["fixture"])
        #expect(ci.text("seed") == "7")
        #expect(throws: TestDiscovery.Failure.self) { try BustedConfig.load(path, run: "nightly") }
    }

    @Test("--exclude-pattern drops files --pattern takes; --no-recursive keeps to the folder itself")
    func discovery() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-discovery-\(UUID().uuidString)").path
        for file in ["a_spec.lua", "fixture_spec.lua", "sub/b_spec.lua"] {
            let path = root + "/" + file
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try "".write(toFile: path, atomically: true, encoding: .utf8)
        }
        #expect(try TestDiscovery.files(in: [root], patterns: [], excludes: ["^fixture"]) == ["\(root)/a_spec.lua", "\(root)/sub/b_spec.lua"])
        #expect(try TestDiscovery.files(in: [root], patterns: ["_spec"], excludes: [], recursive: false) == ["\(root)/a_spec.lua", "\(root)/fixture_spec.lua"])
    }
}
