import ArgumentParser
import Foundation
import LuaHost
import ScriptTesting

/// `cdscript test`: runs Lua test files on a virtual clock.
struct TestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run Lua test files (*_test.lua, *_spec.lua) on a virtual clock.",
        discussion: """
            Each file runs in a fresh Lua state whose clock starts at 0 and moves only
            when a test moves it (clock.advance, clock.next, clock.run_all, clock.stall).
            The last line is always `N passed, N failed` (`, N skipped` when some were;
            a `#` comment with --tap).
            Exit codes: 0 all passed, 1 a test failed or a file did not load,
            4 a path is missing or holds no test files, 5 the JUnit file cannot be written,
            64 bad usage.
            """
    )

    @Argument(help: "Test files, or folders searched for *_test.lua and *_spec.lua (default: tests).")
    var paths: [String] = []

    @Option(help: ArgumentHelp("Run only tests whose full name contains PATTERN or matches it as a Lua pattern.", valueName: "PATTERN"))
    var filter: String?

    @Flag(help: "Write TAP version 13 on stdout instead of the report for people.")
    var tap = false

    @Option(help: ArgumentHelp("Also write a JUnit XML report to FILE.", valueName: "FILE"))
    var junit: String?

    // .unconditional: `--budget -5` reaches validate() and its message, not "Missing value".
    @Option(parsing: .unconditional, help: ArgumentHelp("Lua instructions one test (with the hooks it fires) may run before it fails; 0 for no limit. A test that loops forever fails instead of hanging the run.", valueName: "N"))
    var budget: Int64 = ScriptLimits.defaultInstructionBudget

    func validate() throws {
        guard budget >= 0 else { throw ValidationError("--budget must be 0 (no limit) or a positive number of instructions, got \(budget)") }
    }

    func run() throws {
        LuaHost.lineBufferStandardOutput()
        let files: [String]
        do {
            files = try TestDiscovery.files(in: paths)
        } catch {
            printError("cdscript test: \(error)")
            throw ExitCode(ExitStatus.unreadableScript.rawValue)
        }
        let runner = TestRunner(filter: filter)
        runner.limits = ScriptLimits(instructionBudget: budget)
        // Test files find plugins as scripts do (./plugins, the config folder, CDSCRIPT_PLUGIN_PATH).
        let pluginPath = PluginPath.standard(), prepare = runner.prepareHost
        runner.prepareHost = { host in
            prepare(host)
            host.pluginPath = pluginPath
        }
        let reporter: TestReporter = tap ? TAPReporter() : HumanReporter()
        let reports = runner.run(files: files, reporter: reporter) { line in
            print(line)
        }
        if let junit {
            do {
                try JUnitReport.xml(reports).write(toFile: junit, atomically: true, encoding: .utf8)
            } catch {
                printError("cdscript test: cannot write the JUnit report \(junit): \((error as NSError).localizedDescription)")
                throw ExitCode(ExitStatus.systemError.rawValue)
            }
        }
        if !TestSummary(reports).succeeded {
            throw ExitCode(Self.failureStatus)
        }
    }

    /// A test failed or a file did not load.
    static let failureStatus: Int32 = 1
}
