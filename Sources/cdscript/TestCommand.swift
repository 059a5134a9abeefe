import ArgumentParser
import Foundation
import LuaHost
import ScriptTesting

/// `cdscript test`: runs Lua test files (busted specs unchanged) on a virtual clock.
struct TestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run Lua test files (*_test.lua, *_spec.lua; busted specs unchanged) on a virtual clock.",
        discussion: """
            Each file runs in a fresh Lua state whose clock starts at 0 and moves only
            when a test moves it (clock.advance, clock.next, clock.run_all, clock.stall);
            os.time, os.date and os.clock follow it. busted's blocks and hooks and
            luassert's assert, spy, stub, mock and match are there, as under busted.
            With no path: a .busted file's ROOT, else tests/, else spec/.
            The last line is always `N passed, N failed` (`, N skipped` when some were;
            a `#` comment with --tap).
            Exit codes: 0 all passed, 1 a test failed, a file did not load or no test ran,
            4 a path is missing or holds no test files, 5 the JUnit file cannot be written
            or luassert cannot be loaded, 64 bad usage.
            """
    )

    @Argument(help: "Test files, or folders searched for *_test.lua and *_spec.lua (default: .busted's ROOT, tests, or spec).", completion: .testPaths)
    var paths: [String] = []

    @Option(help: ArgumentHelp("Run only tests whose full name contains PATTERN or matches it as a Lua pattern.", valueName: "PATTERN"))
    var filter: String?

    @Option(name: .customLong("filter-out"), help: ArgumentHelp("Leave out tests whose full name contains PATTERN or matches it as a Lua pattern (as busted).", valueName: "PATTERN"))
    var filterOut: String?

    @Option(name: [.customShort("t"), .long], parsing: .singleValue, help: ArgumentHelp("Run only tests with one of these #tags in their full name (comma-separated, repeatable; as busted).", valueName: "TAGS"))
    var tags: [String] = []

    @Option(name: .customLong("exclude-tags"), parsing: .singleValue, help: ArgumentHelp("Leave out tests with one of these #tags (comma-separated, repeatable; as busted).", valueName: "TAGS"))
    var excludeTags: [String] = []

    @Flag(help: "Write TAP version 13 on stdout instead of the report for people.")
    var tap = false

    @Option(name: [.customShort("o"), .customLong("output")], help: ArgumentHelp("busted's output handler: TAP (as --tap), junit (JUnit XML on stdout), or utfTerminal/plainTerminal (the report for people).", valueName: "NAME"), completion: .list(["TAP", "junit", "utfTerminal", "plainTerminal"]))
    var output: String?

    @Flag(name: .customLong("update-snapshots"), help: "Rewrite the snapshots (__snapshots__/FILE.snap) that to_match_snapshot finds different.")
    var updateSnapshots = false

    @Option(help: ArgumentHelp("Also write a JUnit XML report to FILE.", valueName: "FILE"), completion: .file())
    var junit: String?

    // .unconditional: `--budget -5` reaches validate() and its message, not "Missing value".
    @Option(parsing: .unconditional, help: ArgumentHelp("Lua instructions one test (with the hooks it fires) may run before it fails; 0 for no limit. A test that loops forever fails instead of hanging the run.", valueName: "N"))
    var budget: Int64 = ScriptLimits.defaultInstructionBudget

    @Option(name: .customLong("memory-limit"), help: ArgumentHelp("Memory a test file's Lua state may hold, as for run: bytes, or with K, M or G (512M); 0 for no limit. A test that goes past it fails with the memory error.", valueName: "SIZE"))
    var memoryLimit: String = "512M"

    @Option(name: .customLong("plugin-path"), help: ArgumentHelp("Also look for plugins in DIR (repeatable; after ./plugins and ~/.config/cdscript/plugins).", valueName: "DIR"), completion: .directory)
    var pluginPath: [String] = []

    /// What `-o NAME` asks for.
    enum Format { case human, tap, junit }

    var format: Format {
        get throws {
            guard let output else { return tap ? .tap : .human }
            switch output.lowercased() {
            case "tap": return .tap
            case "junit": return .junit
            case "utfterminal", "plainterminal", "gtest": return .human
            default:
                throw ValidationError("-o/--output: unknown output '\(output)'; known: TAP, junit, utfTerminal, plainTerminal")
            }
        }
    }

    func validate() throws {
        guard budget >= 0 else { throw ValidationError("--budget must be 0 (no limit) or a positive number of instructions, got \(budget)") }
        _ = try HardeningOptions.bytes(memoryLimit)
        _ = try format
    }

    static func tagList(_ values: [String]) -> [String] {
        values.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    func run() throws {
        LuaHost.lineBufferStandardOutput()
        let files: [String]
        do {
            files = try TestDiscovery.files(in: paths, config: try BustedConfig.load())
        } catch {
            printError("cdscript test: \(error)")
            throw ExitCode(ExitStatus.unreadableScript.rawValue)
        }
        if let missing = TestRunner.missingDependency() {
            printError("cdscript test: \(missing)")
            throw ExitCode(ExitStatus.systemError.rawValue)
        }
        let runner = TestRunner(filter: filter)
        runner.filterOut = filterOut
        runner.tags = Self.tagList(tags)
        runner.excludeTags = Self.tagList(excludeTags)
        runner.updateSnapshots = updateSnapshots
        runner.limits = ScriptLimits(memoryLimit: (try? HardeningOptions.bytes(memoryLimit)) ?? ScriptLimits.defaultMemoryLimit, instructionBudget: budget)
        // Test files find plugins as scripts do (./plugins, the config folder, CDSCRIPT_PLUGIN_PATH, --plugin-path).
        let pluginPath = PluginPath.standard(extra: pluginPath), prepare = runner.prepareHost
        runner.prepareHost = { host in
            prepare(host)
            host.pluginPath = pluginPath
        }
        let format = try format
        let reports: [FileReport]
        switch format {
        case .junit:
            reports = files.map { runner.run(file: $0) }
            emit(JUnitReport.xml(reports), terminator: "", what: "the test report")
        case .tap, .human:
            let reporter: TestReporter = format == .tap ? TAPReporter() : HumanReporter()
            reports = runner.run(files: files, reporter: reporter) { line in
                emit(line, what: "the test report")
            }
        }
        if let junit {
            do {
                try ReportFile.write(JUnitReport.xml(reports), to: junit)
            } catch {
                printError("cdscript test: cannot write the JUnit report \(junit): \(error)")
                throw ExitCode(ExitStatus.outputError.rawValue)
            }
        }
        let summary = TestSummary(reports)
        if summary.ranNothing {
            printError("cdscript test: no test ran: " + whyNothingRan(reports))
            throw ExitCode(Self.failureStatus)
        }
        if !summary.succeeded {
            throw ExitCode(Self.failureStatus)
        }
    }

    private func whyNothingRan(_ reports: [FileReport]) -> String {
        let declared = reports.reduce(0) { $0 + $1.declaredTests }
        if declared == 0 {
            let names = reports.map(\.path).joined(separator: ", ")
            return "no it, test or spec in \(names)"
        }
        var selection: [String] = []
        if let filter { selection.append("--filter '\(filter)'") }
        if let filterOut { selection.append("--filter-out '\(filterOut)'") }
        if !tags.isEmpty { selection.append("--tags " + Self.tagList(tags).joined(separator: ",")) }
        if !excludeTags.isEmpty { selection.append("--exclude-tags " + Self.tagList(excludeTags).joined(separator: ",")) }
        return "\(selection.joined(separator: " and ")) matched none of the \(declared) tests declared"
    }

    /// A test failed, a file did not load, or no test ran.
    static let failureStatus: Int32 = 1
}
