import CountdownCore
import FoundationEssentials

/// Lines of Lua files that ran, and how often: what `--coverage` counts in
/// each file's state (CLuaShim's coverage.c), merged over a run.
public struct CoverageData: Equatable, Sendable {
    /// File, named as luacov names it (the chunk's source without "@" and
    /// without one leading "./": `lib/m.lua`) -> line -> times it ran.
    public var hits: [String: [Int: Int]] = [:]

    public init() {}

    /// From counts by chunk source (as Lua names it, without "@").
    public init(counted: [String: [Int: Int]]) {
        for (source, lines) in counted {
            hits[Self.luacovName(source), default: [:]].merge(lines, uniquingKeysWith: +)
        }
    }

    public mutating func merge(_ other: CoverageData) {
        for (file, lines) in other.hits {
            hits[file, default: [:]].merge(lines, uniquingKeysWith: +)
        }
    }

    /// luacov's hook (hook.lua): a leading "./" (or ".\") goes, once.
    public static func luacovName(_ source: String) -> String {
        source.hasPrefix("./") || source.hasPrefix(".\\") ? String(source.dropFirst(2)) : source
    }
}

/// `--coverage`'s reports, as busted with luacov writes them and luacov's
/// reporter and lcov read them: which files count, `luacov.stats.out`,
/// `lcov.info` and a summary for people.
public struct CoverageReport {
    public struct FileCoverage: Equatable, Sendable {
        /// The name luacov's reporter shows (after `.luacov`'s `modules`).
        public var path: String
        /// Lines that count, as luacov's reporter decides (executable_lines.lua).
        public var executable: [Int]
        public var hits: [Int: Int]
        public var hitCount: Int { executable.filter { (hits[$0] ?? 0) > 0 }.count }
    }

    /// luacov.stats.out's files, under the names luacov's runner records.
    public var stats: [(path: String, hits: [Int: Int])]
    /// The reports' files, under the names luacov's reporter shows.
    public var files: [FileCoverage]
    /// Files left out because the formats cannot carry their names (a line
    /// break or a NUL in the name would start a record of its own).
    public var refused: [String]

    /// The project's files among those that ran: relative paths (inside the
    /// folder the run is in, not the system's modules), not the test files nor
    /// the helper, and as `.luacov`'s `include`, `exclude` and `modules` say.
    public init(_ data: CoverageData, testFiles: [String], helper: String?, luacov: LuacovConfig = LuacovConfig()) throws(TestDiscovery.Failure) {
        let skipped = Set((testFiles + (helper.map { [$0] } ?? [])).map(CoverageData.luacovName))
        var refused: [String] = []
        let candidates = data.hits.keys.sorted().filter { name in
            guard !name.hasPrefix("/"), !skipped.contains(name), FileManager.default.fileExists(atPath: name) else { return false }
            if name.unicodeScalars.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\0" }) {
                refused.append(name)
                return false
            }
            return true
        }
        let reportNames = try luacov.reportNames(candidates)
        var stats: [(path: String, hits: [Int: Int])] = []
        var merged: [String: [Int: Int]] = [:]
        for (name, reportName) in zip(candidates, reportNames) {
            guard let reportName else { continue }
            let hits = data.hits[name] ?? [:]
            stats.append((name, hits))
            merged[reportName, default: [:]].merge(hits, uniquingKeysWith: +)
        }
        self.stats = stats
        self.refused = refused
        files = merged.keys.sorted().map { path in
            let hits = merged[path] ?? [:]
            return FileCoverage(path: path, executable: Self.countedLines(path, hits: hits), hits: hits)
        }
    }

    /// The lines of `path` that count, given what ran (luacov's rule, see
    /// executable_lines.lua); a file that cannot be read: the lines that ran.
    static func countedLines(_ path: String, hits: [Int: Int]) -> [Int] {
        guard let text = scanned(path) else { return hits.keys.sorted() }
        return text.split(separator: "\n").compactMap { entry -> Int? in
            let onlyWhenHit = entry.hasSuffix("?")
            guard let line = Int(onlyWhenHit ? entry.dropLast() : entry) else { return nil }
            return !onlyWhenHit || (hits[line] ?? 0) > 0 ? line : nil
        }
    }

    /// luacov's stats file (stats.lua): per file `MAX:NAME`, then the counts of
    /// lines 1...MAX, each followed by a space.
    public var luacovStats: String {
        var out = ""
        for file in stats {
            let max = file.hits.keys.max() ?? 0
            out += "\(max):\(file.path)\n"
            out += (0..<max).map { "\(file.hits[$0 + 1] ?? 0) " }.joined() + "\n"
        }
        return out
    }

    /// lcov's tracefile: `SF`, `DA` per line that counts, `LF`/`LH`, per file.
    public var lcovInfo: String {
        var out = ""
        for file in files {
            out += "TN:\nSF:\(file.path)\n"
            for line in file.executable { out += "DA:\(line),\(file.hits[line] ?? 0)\n" }
            out += "LF:\(file.executable.count)\nLH:\(file.hitCount)\nend_of_record\n"
        }
        return out
    }

    /// Per file and in total: lines that ran of those that count. Names are
    /// escaped: a file's name reaches a terminal here.
    public var summary: [String] {
        var lines: [String] = refused.map {
            "coverage: left out of luacov.stats.out and lcov.info (their formats cannot carry a line break in a name): \(VisibleText.escaped($0))"
        }
        guard !files.isEmpty else { return lines + ["coverage: none of the project's Lua files ran"] }
        let names = files.map { VisibleText.escaped($0.path) }
        let width = names.map(\.count).max() ?? 0
        func row(_ name: String, _ hit: Int, _ total: Int) -> String {
            let percent = total == 0 ? 100 : Double(hit) * 100 / Double(total)
            // Padded by characters, as the width is counted.
            let padded = name + String(repeating: " ", count: max(0, max(width, 5) - name.count))
            return padded + "  " + CFormat.string("%4ld/%-4ld %6.2f%%", hit, total, percent)
        }
        lines.append("coverage (lines that ran of those with code):")
        lines += zip(names, files).map { row($0, $1.hitCount, $1.executable.count) }
        lines.append(row("total", files.reduce(0) { $0 + $1.hitCount }, files.reduce(0) { $0 + $1.executable.count }))
        return lines
    }

    /// The lines of the file at `path` that count, as executable_lines.lua
    /// gives them ("N", or "N?" where the line counts only when it ran, one a
    /// line); nil when the file cannot be read.
    /// The scanner's work grows with the file (a few hundred instructions a
    /// line), so it runs without a budget: one would cut a long file's report
    /// down to the lines that ran, without a word.
    static func scanned(_ path: String) -> String? {
        try? LuaEvaluation.run(executableLines, arguments: ["file", path, lineLexer, lineScanner], results: 1, budget: 0).first
    }

    /// What the line scanner makes of each line of `text` judged alone, by a
    /// scanner of its own: one letter a line, "C" (counts), "?" (counts when it
    /// ran), "-" (never counts). For the tests that hold it to luacov's facts.
    static func judgedAlone(_ text: String) throws -> String {
        try LuaEvaluation.run(executableLines, arguments: ["each", text, lineLexer, lineScanner], results: 1, budget: 0).first ?? ""
    }

    private static let executableLines = String(decoding: PackageResources.executable_lines_lua, as: UTF8.self)
    private static let lineLexer = String(decoding: PackageResources.line_lexer_lua, as: UTF8.self)
    private static let lineScanner = String(decoding: PackageResources.line_scanner_lua, as: UTF8.self)
}
