import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The coverage of the processes specs start under `-c`: a spec that runs
/// `arg[-1] -lluacov tool.lua` (as luacov's users write it, when
/// `package.loaded["luacov.runner"]` is there) gets `cdscript-lua` to count the
/// tool's lines and add them to a stats file of this run's own (named by the
/// `CDSCRIPT_LUACOV_STATS` environment variable, inherited by every process the
/// specs start), which `collect()` reads back into the run's counts.
public final class SubprocessCoverage {
    /// The variable cdscript-lua reads (Sources/cdscript-lua/luacov_standin.h).
    public static let environmentVariable = "CDSCRIPT_LUACOV_STATS"

    /// The folder of this run's stats file, removed by `collect()`.
    let folder: URL
    /// The stats file the subprocesses add to (luacov.stats.out's format).
    public var statsFile: URL { folder.appendingPathComponent("luacov.stats.out") }

    /// Makes the folder and names its stats file in this process's environment,
    /// so that the processes specs start from now on count into it.
    public init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-coverage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        setenv(Self.environmentVariable, statsFile.path, 1)
    }

    /// The variable and the folder go with the run, whichever way it ends.
    deinit {
        unsetenv(Self.environmentVariable)
        try? FileManager.default.removeItem(at: folder)
    }

    /// What the subprocesses counted, under luacov's names. Read under the lock
    /// cdscript-lua writes under, so a process still running (started in the
    /// background) adds all or nothing.
    public func collect() -> CoverageData {
        let lock = open(statsFile.path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        if lock >= 0 { _ = flock(lock, LOCK_EX) }
        defer { if lock >= 0 { close(lock) } }
        guard let text = try? String(contentsOf: statsFile, encoding: .utf8) else { return CoverageData() }
        return CoverageData(luacovStats: text)
    }
}

extension CoverageData {
    /// Counts read from luacov's stats file (`MAX:NAME`, then MAX counts each
    /// followed by a space); names as recorded, lines that never ran left out.
    public init(luacovStats text: String) {
        self.init()
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
        while let header = lines.popFirst() {
            guard let colon = header.firstIndex(of: ":"), let max = Int(header[..<colon]), max >= 0 else { break }
            let name = String(header[header.index(after: colon)...])
            let counts = (lines.popFirst() ?? "").split(separator: " ").compactMap { Int($0) }
            var file: [Int: Int] = [:]
            for (index, count) in counts.prefix(max).enumerated() where count > 0 {
                file[index + 1] = count
            }
            if !file.isEmpty { hits[name, default: [:]].merge(file, uniquingKeysWith: +) }
        }
    }
}
