import Foundation
import Testing

/// The same busted project run by real `busted` (on Lua 5.4) and by `cdscript test`:
/// the same tests pass, fail and are skipped, in the same order.
@Suite("busted specs run unchanged: the same results as busted for the same files")
struct BustedCompatTests {
    /// A busted project: a `.busted` file (ROOT and pattern), spec/, and a library
    /// at its root found through ./?.lua.
    static let project = BinaryRunner.packageRoot.appendingPathComponent("Tests/ScriptTestingTests/Fixtures/busted_project")

    struct Outcome: Equatable, CustomStringConvertible {
        var name: String
        var status: String
        var description: String { "\(status) \(name)" }
    }

    /// Runs a program in `directory`; stdout, stderr, exit status.
    static func run(_ executable: String, _ arguments: [String], in directory: URL, environment: [String: String] = [:]) throws -> (status: Int32, stdout: String, stderr: String) {
        let result = try BinaryRunner.run(arguments, timeout: 60, in: directory, environment: environment,
                                          executable: URL(fileURLWithPath: executable))
        return (result.status, result.stdout, result.stderr)
    }

    /// busted's TAP: `ok N - a b c`, `not ok N - ...`, `ok N - # SKIP a b c`.
    static func bustedOutcomes(_ tap: String) -> [Outcome] {
        tap.split(separator: "\n").compactMap { line in
            guard let m = line.wholeMatch(of: /(ok|not ok) \d+ - (.*)/) else { return nil }
            var name = String(m.2)
            var status = m.1 == "ok" ? "pass" : "fail"
            if name.hasPrefix("# SKIP ") {
                name.removeFirst("# SKIP ".count)
                status = "skip"
            }
            return Outcome(name: name, status: status)
        }
    }

    /// cdscript's TAP, which names tests as busted's does (`ok N - a b c`,
    /// `ok N - # SKIP a b c`); a `#` in a name is escaped (`\#`), as TAP reads it.
    static func cdscriptOutcomes(_ tap: String) -> [Outcome] {
        bustedOutcomes(tap).map { Outcome(name: $0.name.replacingOccurrences(of: "\\#", with: "#"), status: $0.status) }
    }

    static func compare(_ bustedArguments: [String], _ cdscriptArguments: [String], in directory: URL = project) throws -> [Outcome] {
        let busted = try Self.run("/usr/bin/lua5.4", ["/usr/bin/busted", "-o", "TAP"] + bustedArguments, in: directory)
        let cdscript = try Self.run(BinaryRunner.binary.path, ["test", "-o", "TAP"] + cdscriptArguments, in: directory)
        let expected = bustedOutcomes(busted.stdout)
        #expect(!expected.isEmpty, "busted ran nothing: \(busted.stdout)\(busted.stderr)")
        #expect(cdscriptOutcomes(cdscript.stdout) == expected, "cdscript:\n\(cdscript.stdout)\(cdscript.stderr)\nbusted:\n\(busted.stdout)")
        #expect(cdscript.status == (busted.status == 0 ? 0 : 1))
        return expected
    }

    @Test("the whole project: blocks, hooks and their order, busted's per-block globals, luassert's assertions, spies, stubs, mocks, insulate and expose")
    func wholeProject() throws {
        let outcomes = try Self.compare([], [])
        // The project has passes, failures and pending tests, so the comparison means something.
        #expect(Set(outcomes.map(\.status)) == ["pass", "fail", "skip"])
        #expect(outcomes.count == 29)
    }

    @Test("the project's own busted-style spec (tests/busted_style_spec.lua) gives the same results under busted")
    func projectSpec() throws {
        let file = "tests/busted_style_spec.lua"
        let outcomes = try Self.compare([file], [file], in: BinaryRunner.packageRoot)
        #expect(outcomes.count == 6)
        #expect(outcomes.allSatisfy { $0.status == "pass" })
    }

    @Test("--tags, --exclude-tags, --filter and --filter-out pick the same tests as busted's")
    func selection() throws {
        #expect(try Self.compare(["--tags=fast"], ["--tags=fast"]).count == 2)
        #expect(try Self.compare(["--tags=fast", "--exclude-tags=slow"], ["--tags", "fast", "--exclude-tags", "slow"]).count == 1)
        #expect(try Self.compare(["--filter=spies and stubs spy"], ["--filter", "spies and stubs spy"]).count == 2)
        #expect(try Self.compare(["--filter-out=spies"], ["--filter-out", "spies"]).count == 23)
    }

    @Test("with no path and no .busted: spec/ (busted's default) when there is one, else tests/")
    func specDefault() throws {
        let dir = URL(fileURLWithPath: try BinaryRunner.script("", name: "unused.lua")).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("spec"), withIntermediateDirectories: true)
        try "it('runs from spec/', function() assert.is_true(true) end)".write(to: dir.appendingPathComponent("spec/a_spec.lua"), atomically: true, encoding: .utf8)
        let result = try Self.run(BinaryRunner.binary.path, ["test"], in: dir)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.hasPrefix("spec/a_spec.lua\n  ✓ runs from spec/\n"))
    }

    @Test("-o junit writes JUnit XML on stdout, as busted's junit output does")
    func junit() throws {
        let result = try Self.run(BinaryRunner.binary.path, ["test", "-o", "junit"], in: Self.project)
        #expect(result.status == 1)
        #expect(result.stdout.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites tests=\"29\" errors=\"1\" failures=\"5\" skip=\"2\">\n  <testsuite name=\"Run 1 of 1\""), "\(result.stdout)")
    }

    @Test("without luassert on package.path: one clear line that says what is missing, exit 5")
    func missingLuassert() throws {
        let result = try Self.run(BinaryRunner.binary.path, ["test"], in: Self.project, environment: ["LUA_PATH_5_4": "/nonexistent/?.lua"])
        #expect(result.status == 5)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("cdscript test: luassert, the assertion library of busted, cannot be loaded (on Debian: apt install lua-luassert"), "\(result.stderr)")
        #expect(result.stderr.contains("module 'luassert' not found"))
    }
}
