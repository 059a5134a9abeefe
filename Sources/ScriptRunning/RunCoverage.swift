import CommandEnding
import FoundationEssentials
import LuaHost
import ScriptTesting
#if canImport(Glibc)
import Glibc
#endif

/// `cdscript run --coverage`: the lines of the script's files that ran, in the
/// reports `cdscript test --coverage` writes (luacov.stats.out, lcov.info and a
/// summary on stderr), with the same `.luacov` include, exclude and modules.
struct RunCoverage {
    let host: LuaHost
    /// Read before the run starts: a bad `.luacov` is a usage problem, found
    /// before the script runs rather than after.
    let luacov: LuacovConfig

    /// Starts counting in `host`; nil without `--coverage`.
    init?(enabled: Bool, host: LuaHost) throws(CommandExit) {
        guard enabled else { return nil }
        do {
            luacov = try LuacovConfig.read()
        } catch {
            printError("cdscript: \(error)")
            throw CommandExit(.unreadableScript)
        }
        self.host = host
        host.startCoverage()
    }

    /// What ran; call it before the state closes. Files count when they are
    /// inside the current folder and outside the plugin folders (cdscript's
    /// preludes and built-in plugins are not files).
    func collect() -> CoverageData {
        let here = FileManager.default.currentDirectoryPath
        let plugins = host.plugins.path.map { $0.path.hasSuffix("/") ? $0.path : $0.path + "/" }
        var data = CoverageData()
        for (file, lines) in host.takeCoverageCounts() {
            let absolute = PluginPath.absolute(file, in: here)
            guard !plugins.contains(where: { absolute.hasPrefix($0) }) else { continue }
            guard absolute.hasPrefix(here == "/" ? "/" : here + "/") else { continue }
            let relative = String(absolute.dropFirst(here == "/" ? 1 : here.count + 1))
            data.hits[relative, default: [:]].merge(lines, uniquingKeysWith: +)
        }
        return data
    }

    /// Writes the reports (after the view has given the terminal back: the
    /// summary goes to stderr). Returns the run's exit when they could not be
    /// written whole (said on stderr): 74, or 4 for bad `.luacov` patterns.
    func write(_ data: CoverageData) -> ExitStatus? {
        let report: CoverageReport
        do {
            report = try CoverageReport(data, testFiles: [], helper: nil, luacov: luacov)
        } catch {
            printError("cdscript: \(error)")
            return .unreadableScript
        }
        for (text, file, what) in [(report.luacovStats, "luacov.stats.out", "coverage statistics"),
                                   (report.lcovInfo, "lcov.info", "lcov tracefile")] {
            do {
                try ReportFile.writeReplacing(text, to: file)
            } catch {
                printError("cdscript: cannot write the \(what) \(file): \(error)")
                return .outputError
            }
        }
        report.summary.forEach { printError($0) }
        return nil
    }
}
