import CommandEnding
import CountdownCore
import FoundationEssentials
import LuaHost
import RedisStore
import ScriptTesting

/// `cdscript test`'s command line as plain values: busted's options (nil where
/// one was not given, so that the `.busted` file's value applies) and
/// cdscript's own. The names are the options' (`TestSettings` resolves them).
public struct TestFlags {
    public var paths: [String] = []
    public var output: String?
    public var xoutput: [String] = []
    public var verbose: Bool?
    public var pattern: [String] = []
    public var excludePattern: [String] = []
    public var recursive: Bool?
    public var lpath: [String] = []
    public var cpath: [String] = []
    public var helper: String?
    public var xhelper: [String] = []
    public var runName: String?
    public var configFile: String?
    public var directory: [String] = []
    public var statements: [String] = []
    public var shuffle: Bool?
    public var shuffleFiles: Bool?
    public var shuffleTests: Bool?
    public var sort: Bool?
    public var sortFiles: Bool?
    public var sortTests: Bool?
    public var seed: Int64?
    public var repeatCount: Int?
    public var keepGoing: Bool?
    public var list = false
    public var filter: [String] = []
    public var filterOut: [String] = []
    public var tags: [String] = []
    public var excludeTags: [String] = []
    public var deferPrint: Bool?
    public var suppressPending: Bool?
    public var autoInsulate: Bool?
    /// `--lua`: accepted and said to be unused.
    public var lua: String?
    public var coverage: Bool?
    public var coverageConfigFile: String?
    public var tap = false
    public var cdscriptNames = false
    public var updateSnapshots = false
    public var junit: String?
    public var budget: Int64 = 0
    /// CPU seconds per test; 0: none.
    public var cpuLimit: Double = Self.defaultCPULimit
    /// As `--memory-limit` takes it ("512M"), checked when the options were read.
    public var memoryLimit = "512M"
    /// `--state-dir`: the SQLite store in that folder, for integration tests.
    public var stateDir: String?
    /// `--store`: the Redis store's URL, read when the run opens it (a bad one
    /// ends the run there, as the command line decides).
    public var store: (() throws -> RedisURL)?
    public var pluginPath: [String] = []

    public init() {}

    /// The CPU-time limit per test by default, in seconds: far above what a
    /// real suite's test takes, and the timer costs nothing until it fires.
    public static let defaultCPULimit: Double = 60

    /// "a, b" and "c" -> ["a", "b", "c"]: comma-separated values, blanks around them dropped.
    public static func tagList(_ values: [String]) -> [String] {
        values.flatMap { $0.split(separator: ",") }.map { part in String(part.drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed()) }.filter { !$0.isEmpty }
    }
}

/// `cdscript test`: runs Lua test files (busted specs unchanged) on a virtual
/// clock, with busted's command line and `.busted` file (TestSettings).
public enum TestRun {
    /// A test failed, a file did not load, or no test ran.
    public static let failureStatus: Int32 = 1

    /// Runs the tests `flags` select and writes their reports; returns when
    /// every test passed, else throws the exit (`CommandExit`), having said why.
    public static func run(_ flags: TestFlags) throws {
        LuaHost.lineBufferStandardOutput()
        for dir in flags.directory where !FileManager.default.changeCurrentDirectoryPath(dir) {
            printError("cdscript test: -C/--directory \(dir): cannot change to it")
            throw CommandExit(.unreadableScript)
        }
        if let lua = flags.lua {
            printError("cdscript test: --lua \(lua) is not used: cdscript runs its own Lua 5.4")
        }
        let settings: TestSettings
        let files: [String]
        do {
            let config = try BustedConfig.load(flags.configFile ?? ".busted", run: flags.runName)
            settings = try TestSettings(flags, config: config)
            files = try settings.files()
        } catch let failure as TestDiscovery.Failure {
            printError("cdscript test: \(failure)")
            throw CommandExit(.unreadableScript)
        } catch let usage as TestSettings.Usage {
            printError("cdscript test: \(usage.message)")
            throw CommandExit(.usage)
        }
        if let missing = TestRunner.missingDependency() {
            printError("cdscript test: \(missing)")
            throw CommandExit(.systemError)
        }
        let runner = settings.runner(budget: flags.budget, memoryLimit: flags.memoryLimit, updateSnapshots: flags.updateSnapshots,
                                     pluginPath: PluginPath.standard(extra: flags.pluginPath))
        RunInterruption.startTestCPULimit(seconds: flags.cpuLimit)
        // busted's arg[-1] is the interpreter it runs on: cdscript-lua, which is lua5.4.
        runner.interpreter = PlainLuaInterpreter.forRun()
        runner.store = try openIntegrationStore(flags)
        defer { if let store = runner.store { cleanUp(store, runner: runner) } }
        if settings.list {
            for file in files {
                var report = runner.run(file: file)
                if settings.suppressPending { report.results.removeAll { $0.status == .skipped } }
                TestListing.lines(report).forEach { emit(VisibleText.escapedKeepingLayout($0), what: "the test list") }
            }
            return
        }
        // Under -c the processes specs start with `arg[-1] -lluacov` count too.
        let subprocesses = settings.coverage ? try? SubprocessCoverage() : nil
        let reports = try settings.output.run(files: files, runner: runner, settings: settings)
        if let junit = flags.junit {
            try TestOutput.writeJUnit(reports, to: junit, names: settings.reportNames)
        }
        if settings.coverage {
            try TestOutput.writeCoverage(reports, files: files, settings: settings, luacovFile: flags.coverageConfigFile,
                                         subprocesses: subprocesses?.collect() ?? CoverageData())
        }
        let summary = TestSummary(reports)
        if summary.ranNothing {
            printError("cdscript test: no test ran: " + whyNothingRan(reports, settings: settings))
            throw CommandExit(status: failureStatus)
        }
        if !summary.succeeded {
            throw CommandExit(status: failureStatus)
        }
    }

    private static func whyNothingRan(_ reports: [FileReport], settings: TestSettings) -> String {
        let declared = reports.reduce(0) { $0 + $1.declaredTests }
        if declared == 0 {
            let names = reports.map(\.path).joined(separator: ", ")
            return "no it, test or spec in \(names)"
        }
        var selection: [String] = []
        selection += settings.filters.map { "--filter '\($0)'" }
        selection += settings.filterOuts.map { "--filter-out '\($0)'" }
        if !settings.tags.isEmpty { selection.append("--tags " + settings.tags.joined(separator: ",")) }
        if !settings.excludeTags.isEmpty { selection.append("--exclude-tags " + settings.excludeTags.joined(separator: ",")) }
        if settings.suppressPending { selection.append("--suppress-pending") }
        return "\(selection.joined(separator: " and ")) matched none of the \(declared) tests declared"
    }
}
