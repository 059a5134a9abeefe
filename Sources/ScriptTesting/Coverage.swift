import Foundation

/// Lines of Lua files that ran, and how often: what `--coverage` counts in
/// each file's state (Lua/prelude_busted.lua), merged over a run.
public struct CoverageData: Equatable, Sendable {
    /// File (as Lua names it, without "@") -> line -> times it ran.
    public var hits: [String: [Int: Int]] = [:]

    public init() {}

    /// From the prelude's "source\tline\tcount" lines.
    init(counted text: String) {
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard parts.count == 3, let number = Int(parts[1]), let count = Int(parts[2]) else { continue }
            hits[String(parts[0]), default: [:]][number, default: 0] += count
        }
    }

    public mutating func merge(_ other: CoverageData) {
        for (file, lines) in other.hits {
            for (line, count) in lines { hits[file, default: [:]][line, default: 0] += count }
        }
    }
}

/// `--coverage`'s reports, as luacov writes them and lcov reads them: which
/// files count, `luacov.stats.out`, `lcov.info` and a summary for people.
public struct CoverageReport {
    public struct FileCoverage: Equatable, Sendable {
        public var path: String
        /// Lines that hold code (from the compiled chunk's line information).
        public var executable: [Int]
        public var hits: [Int: Int]
        public var hitCount: Int { executable.filter { (hits[$0] ?? 0) > 0 }.count }
    }

    public var files: [FileCoverage]

    /// The project's files among those that ran: relative paths (inside the
    /// folder the run is in, not the system's modules), not the test files
    /// nor the helper, and as `.luacov`'s `include`/`exclude` say when there is one.
    public init(_ data: CoverageData, testFiles: [String], helper: String?, luacov: (include: [String], exclude: [String]) = ([], [])) {
        let skipped = Set((testFiles + (helper.map { [$0] } ?? [])).map(Self.normalized))
        let names = data.hits.keys.filter { path in
            let name = Self.normalized(path)
            guard !path.hasPrefix("/"), !skipped.contains(name), FileManager.default.fileExists(atPath: path) else { return false }
            let module = name.hasSuffix(".lua") ? String(name.dropLast(4)) : name
            if !luacov.include.isEmpty, !Self.matchesAny(module, luacov.include) { return false }
            return !Self.matchesAny(module, luacov.exclude)
        }
        files = names.sorted().map { path in
            let hits = data.hits[path] ?? [:]
            let lines = (try? LuaEvaluation.run(Self.executableLines, arguments: [path], results: 1).first) ?? ""
            var executable = Set(lines.split(separator: "\n").compactMap { Int($0) })
            // A line that ran holds code, whatever the compiled chunk says of it.
            executable.formUnion(hits.keys)
            return FileCoverage(path: path, executable: executable.sorted(), hits: hits)
        }
    }

    /// `.luacov`'s `include` and `exclude` patterns, when the file is there.
    public static func luacovPatterns(_ path: String = ".luacov") throws(TestDiscovery.Failure) -> (include: [String], exclude: [String]) {
        guard FileManager.default.fileExists(atPath: path) else { return ([], []) }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw TestDiscovery.Failure(message: "cannot read \(path)") }
        do {
            let lists = try LuaEvaluation.run(luacovReader, arguments: [text, path], results: 2)
            func split(_ s: String) -> [String] { s.split(separator: "\n").map(String.init) }
            return (split(lists[0]), split(lists[1]))
        } catch {
            throw TestDiscovery.Failure(message: "\(path): \(error.message)")
        }
    }

    /// luacov's stats file: per file `MAX:NAME` and the counts of lines 1...MAX.
    public var luacovStats: String {
        var out = ""
        for file in files {
            let max = file.hits.keys.max() ?? 0
            out += "\(max):\(file.path)\n"
            out += (0..<max).map { "\(file.hits[$0 + 1] ?? 0) " }.joined() + "\n"
        }
        return out
    }

    /// lcov's tracefile: `SF`, `DA` per line with code, `LF`/`LH`, per file.
    public var lcovInfo: String {
        var out = ""
        for file in files {
            out += "TN:\nSF:\(file.path)\n"
            for line in file.executable { out += "DA:\(line),\(file.hits[line] ?? 0)\n" }
            out += "LF:\(file.executable.count)\nLH:\(file.hitCount)\nend_of_record\n"
        }
        return out
    }

    /// Per file and in total: lines that ran of those with code.
    public var summary: [String] {
        guard !files.isEmpty else { return ["coverage: none of the project's Lua files ran"] }
        let width = files.map(\.path.count).max() ?? 0
        func row(_ name: String, _ hit: Int, _ total: Int) -> String {
            let percent = total == 0 ? 100 : Double(hit) * 100 / Double(total)
            return name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + String(format: "%4d/%-4d %6.2f%%", hit, total, percent)
        }
        var lines = ["coverage (lines that ran of those with code):"]
        lines += files.map { row($0.path, $0.hitCount, $0.executable.count) }
        lines.append(row("total", files.reduce(0) { $0 + $1.hitCount }, files.reduce(0) { $0 + $1.executable.count }))
        return lines
    }

    static func normalized(_ path: String) -> String {
        path.hasPrefix("./") ? String(path.dropFirst(2)) : path
    }

    static func matchesAny(_ name: String, _ patterns: [String]) -> Bool {
        guard !patterns.isEmpty else { return false }
        return BustedConfig.matching([name], patterns: patterns).first ?? false
    }

    private static let executableLines = String(decoding: PackageResources.executable_lines_lua, as: UTF8.self)
    private static let luacovReader = String(decoding: PackageResources.luacov_config_lua, as: UTF8.self)
}
