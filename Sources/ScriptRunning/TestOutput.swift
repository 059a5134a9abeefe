import CommandEnding
import CountdownCore
import FoundationEssentials
import ScriptTesting
#if canImport(Glibc)
import Glibc
#endif

/// busted's output handlers (`-o NAME`, with `-Xoutput` options), and where
/// each writes: one place per format, so that write errors are handled alike.
public enum TestOutput {
    /// utfTerminal and plainTerminal: the report for people, as files finish.
    case human(HumanReporter.Marks)
    case tap
    case gtest
    /// JUnit XML; on stdout, or in the file `-Xoutput FILE` names (as busted's junit).
    case junit(file: String?)
    /// busted's JSON document; on stdout, or in the file `-Xoutput FILE` names.
    case json(file: String?)
    /// An output handler written in Lua, loaded as busted loads it (FILE.lua,
    /// busted.outputHandlers.NAME, or the module NAME), with -Xoutput's options.
    case lua(name: String, arguments: [String])

    /// The output handlers built in, by the names `-o` takes (any case): the one
    /// list that the parser, the help text and shell completion read.
    public enum BuiltIn: String, CaseIterable {
        case utfTerminal, plainTerminal, TAP, junit, json, gtest

        init?(name: String) {
            guard let found = Self.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else { return nil }
            self = found
        }

        /// The names, as `-o` and completion list them.
        public static let names = allCases.map(\.rawValue)
        /// "utfTerminal, plainTerminal, TAP, junit, json or gtest".
        public static let namesText = names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
    }

    public init(name: String, options: [String], verbose: Bool) throws(UsageError) {
        let terminalOptions: Set<String> = ["--plain", "--color"]
        func onlyTerminalOptions() throws(UsageError) {
            if let other = options.first(where: { !terminalOptions.contains($0) }) {
                throw UsageError("-Xoutput \(other): the \(name) output takes --plain or --color only (cdscript's reports have no colours)")
            }
        }
        func fileOption() throws(UsageError) -> String? {
            guard options.count <= 1 else { throw UsageError("-Xoutput: the \(name) output takes one file name, got \(options.joined(separator: ","))") }
            return options.first
        }
        if name.lowercased() == "sound" {
            throw UsageError("-o sound: cdscript test plays no sounds; use \(BuiltIn.namesText)")
        }
        guard let builtIn = BuiltIn(name: name) else {
            self = .lua(name: name, arguments: options)
            return
        }
        switch builtIn {
        case .utfTerminal:
            try onlyTerminalOptions()
            self = .human(.unicode)
        case .plainTerminal:
            try onlyTerminalOptions()
            self = .human(.ascii)
        case .TAP:
            try onlyTerminalOptions()
            self = .tap
        case .gtest:
            try onlyTerminalOptions()
            self = .gtest
        case .junit:
            self = .junit(file: try fileOption())
        case .json:
            self = .json(file: try fileOption())
        }
    }

    /// Runs `files` as settings say (order, --repeat, --no-keep-going) and
    /// writes the report; returns every file's report.
    func run(files: [String], runner: TestRunner, settings: TestSettings) throws -> [FileReport] {
        let started = BootClock().bootNow()
        func seconds() -> Double { Double(BootClock().bootNow() - started) / 1e9 }
        switch self {
        case .human, .tap, .gtest:
            let reporter: TestReporter
            switch self {
            case .human(let marks): reporter = HumanReporter(marks: marks)
            case .gtest: reporter = GTestReporter()
            default: reporter = TAPReporter(names: settings.reportNames)
            }
            // --defer-print: nothing is written before every file has run. Test
            // names, messages and captured output are the scripts' text on its way
            // to a terminal: no control character of theirs gets through.
            var deferred: [String] = []
            let emitLine = { (line: String) in emit(VisibleText.escapedKeepingLayout(line), what: "the test report") }
            let write: (String) -> Void = settings.deferPrint ? { deferred.append($0) } : emitLine
            reporter.opening().forEach(write)
            let reports = Self.runAll(files, runner: runner, settings: settings) { report in
                reporter.lines(for: report).forEach(write)
            }
            reporter.closing(TestSummary(reports)).forEach(write)
            deferred.forEach(emitLine)
            return reports
        case .junit(let file):
            let reports = Self.runAll(files, runner: runner, settings: settings) { _ in }
            try Self.write(JUnitReport.xml(reports, names: settings.reportNames), to: file, what: "JUnit report")
            return reports
        case .json(let file):
            let reports = Self.runAll(files, runner: runner, settings: settings) { _ in }
            let seed = settings.shuffleTests ? settings.seed : nil
            try Self.write(JSONReport.json(reports, duration: seconds(), randomSeed: seed), to: file, what: "JSON report")
            return reports
        case .lua(let name, let arguments):
            let handler: LuaOutputHandler
            do {
                handler = try LuaOutputHandler(name: name, arguments: arguments, verbose: settings.verbose,
                                               suppressPending: settings.suppressPending, deferPrint: settings.deferPrint)
            } catch {
                printError("cdscript test: -o \(name): \(error)")
                throw CommandExit(.usage)
            }
            var problems: [String] = []
            let reports = Self.runAll(files, runner: runner, settings: settings) { report in
                if let problem = handler.file(report) { problems.append(problem) }
            }
            if let problem = handler.finish() { problems.append(problem) }
            if !problems.isEmpty {
                // The handler's own errors fail the run: its report is not whole.
                problems.forEach { printError("cdscript test: -o \(name): \($0)") }
                throw CommandExit(status: TestRun.failureStatus)
            }
            return reports
        }
    }

    /// Every file, `--repeat` times; after the first file with a failure or an
    /// error, none more with `--no-keep-going`. `--suppress-pending` drops
    /// pending tests from the reports.
    static func runAll(_ files: [String], runner: TestRunner, settings: TestSettings, each: (FileReport) -> Void) -> [FileReport] {
        var reports: [FileReport] = []
        for _ in 0..<settings.repeatCount {
            for file in files {
                var report = runner.run(file: file)
                if settings.suppressPending {
                    report.results.removeAll { $0.status == .skipped }
                    report.declaredTests = max(report.declaredTests, report.results.count)
                }
                reports.append(report)
                each(report)
                if !settings.keepGoing, !TestSummary([report]).succeeded { return reports }
            }
        }
        return reports
    }

    /// `--coverage`: luacov.stats.out and lcov.info in the folder the run is in, the summary on stderr
    /// (stdout's last line stays the totals).
    /// `subprocesses`: what the processes the specs started counted (`-lluacov`).
    static func writeCoverage(_ reports: [FileReport], files: [String], settings: TestSettings, luacovFile: String?,
                              subprocesses: CoverageData = CoverageData()) throws {
        var data = subprocesses
        for report in reports { data.merge(report.coverage) }
        let report: CoverageReport
        do {
            report = try CoverageReport(data, testFiles: files, helper: settings.helper, luacov: LuacovConfig.read(luacovFile ?? ".luacov"))
        } catch {
            printError("cdscript test: \(error)")
            throw CommandExit(.unreadableScript)
        }
        for (text, file, what) in [(report.luacovStats, "luacov.stats.out", "coverage statistics"), (report.lcovInfo, "lcov.info", "lcov tracefile")] {
            do {
                try ReportFile.writeReplacing(text, to: file)
            } catch {
                printError("cdscript test: cannot write the \(what) \(file): \(error)")
                throw CommandExit(.outputError)
            }
        }
        report.summary.forEach { printError($0) }
    }

    /// `--junit FILE`: the JUnit report, besides the output chosen with -o.
    static func writeJUnit(_ reports: [FileReport], to file: String, names: ReportNames) throws {
        try write(JUnitReport.xml(reports, names: names), to: file, what: "JUnit report")
    }

    /// A whole report: on stdout without a file (a failure there is the
    /// OutputContract's: 141 or 74), else into the file, in place (exit 74 when
    /// it cannot be written, whole).
    static func write(_ text: String, to file: String?, what: String) throws {
        guard let file else {
            emit(text, terminator: "", what: "the test report")
            return
        }
        do {
            try ReportFile.write(text, to: file)
        } catch {
            printError("cdscript test: cannot write the \(what) \(file): \(error)")
            throw CommandExit(.outputError)
        }
    }
}
