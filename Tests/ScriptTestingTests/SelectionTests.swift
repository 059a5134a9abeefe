import Foundation
import Testing
@testable import ScriptTesting

@Suite("Which tests run: pending ones are skipped, --filter picks by name, folders are searched by suffix")
struct SelectionTests {
    let mixed = Fixture.path("mixed.lua")

    @Test("pending(name) tests are skipped and counted apart (it(name) without a body declares nothing, as busted: BustedFourthRoundTests)")
    func pending() {
        let report = TestRunner().run(file: mixed)
        #expect(report.results.map(\.status) == [.passed, .failed, .skipped, .skipped, .passed])
        let summary = TestSummary([report])
        #expect(summary.line == "2 passed, 1 failed, 2 skipped")
        #expect(TestSummary(passed: 3, failed: 0).line == "3 passed, 0 failed")
    }

    @Test("--filter keeps tests whose full name contains the text")
    func plainFilter() {
        let report = TestRunner(filter: "quotes\" # hash > pass").run(file: mixed)
        #expect(report.results.map(\.name) == [
            "report <&> \"quotes\" # hash > passes",
            "report <&> \"quotes\" # hash > passes with a clock that kept its time",
        ])
    }

    @Test("--filter also matches as a Lua pattern")
    func patternFilter() {
        let report = TestRunner(filter: "> %a+s$").run(file: mixed)
        #expect(report.results.map(\.name) == ["report <&> \"quotes\" # hash > passes", "report <&> \"quotes\" # hash > fails"])
    }

    @Test("a filter that matches nothing runs nothing, and a malformed pattern is taken as plain text")
    func noMatch() {
        #expect(TestRunner(filter: "no such test").run(file: mixed).results.isEmpty)
        #expect(TestRunner(filter: "%").run(file: mixed).results.isEmpty)
    }

    @Test("folders give their *_test.lua and *_spec.lua files in byte order, hidden folders left out; files named run as given")
    func discovery() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-discovery-\(UUID().uuidString)").path
        for file in ["b_test.lua", "a_spec.lua", "helper.lua", "Z_spec.lua", "sub/d_spec.lua", ".hidden/e_spec.lua", "notes_spec.lua.txt"] {
            let path = root + "/" + file
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try "".write(toFile: path, atomically: true, encoding: .utf8)
        }
        #expect(try TestDiscovery.files(in: [root]) == [
            "\(root)/Z_spec.lua", "\(root)/a_spec.lua", "\(root)/b_test.lua", "\(root)/sub/d_spec.lua",
        ])
        #expect(try TestDiscovery.files(in: [root + "/helper.lua", root + "/"]) == [
            "\(root)/helper.lua", "\(root)/Z_spec.lua", "\(root)/a_spec.lua", "\(root)/b_test.lua", "\(root)/sub/d_spec.lua",
        ])
    }

    @Test("a missing path or a folder without test files is an error")
    func discoveryErrors() {
        #expect(throws: TestDiscovery.Failure(message: "no such file or folder: /nonexistent/tests")) {
            try TestDiscovery.files(in: ["/nonexistent/tests"])
        }
        // The runner's own fixtures fail on purpose: no folder search may pick them up.
        #expect(throws: TestDiscovery.Failure(message: "no test files (*_test.lua, *_spec.lua) in \(Fixture.folder.path)")) {
            try TestDiscovery.files(in: [Fixture.folder.path])
        }
    }
}
