import CountdownCore
import FoundationEssentials

/// Finds test files: files given by name, and every `*_test.lua` and
/// `*_spec.lua` under folders given (or what a `.busted` file's `pattern`
/// names), in byte order of their paths.
public enum TestDiscovery {
    public static let suffixes = ["_test.lua", "_spec.lua"]
    public static let defaultPaths = ["tests"]

    public struct Failure: Error, CustomStringConvertible, Equatable {
        public let message: String
        public var description: String { message }
    }

    /// The test files for `paths`, with a `.busted` file's `ROOT` and `pattern`.
    public static func files(in paths: [String], config: BustedConfig? = nil) throws(Failure) -> [String] {
        try files(in: paths.isEmpty ? defaultRoots(config) : paths, patterns: config?.patterns ?? [])
    }

    /// The test files under `roots`. A file named explicitly runs whatever its
    /// name; a folder contributes only files with a test suffix (or, with
    /// `patterns`, busted's `-p`, `.lua` files whose base name matches one as a
    /// Lua pattern) and whose base name matches none of `excludes` (busted's
    /// `--exclude-pattern`), hidden folders left out; its subfolders too unless
    /// `recursive` is false (busted's `--no-recursive`).
    public static func files(in roots: [String], patterns: [String], excludes: [String] = [], recursive: Bool = true) throws(Failure) -> [String] {
        var found: [String] = []
        var seen: Set<String> = []
        let fm = FileManager.default
        for root in roots {
            guard fm.fileExists(atPath: root) else {
                throw Failure(message: "no such file or folder: \(root)")
            }
            var files: [String]
            if FileKind.isDirectory(at: root) {
                let prefix = root.hasSuffix("/") ? root : root + "/"
                files = (recursive ? try? fm.subpathsOfDirectory(atPath: root) : try? fm.contentsOfDirectory(atPath: root)) ?? []
                files = files
                    .filter { relative in
                        (patterns.isEmpty ? isTestFile(relative) : relative.hasSuffix(".lua"))
                            && !relative.split(separator: "/").contains { $0.hasPrefix(".") }
                    }
                    .map { prefix + $0 }
                    .filter { path in fm.fileExists(atPath: path) && !FileKind.isDirectory(at: path) }
                if !patterns.isEmpty {
                    let keep = BustedConfig.matching(files.map(PathText.lastComponent(of:)), patterns: patterns)
                    files = zip(files, keep).filter(\.1).map(\.0)
                }
                if !excludes.isEmpty {
                    let drop = BustedConfig.matching(files.map(PathText.lastComponent(of:)), patterns: excludes)
                    files = zip(files, drop).filter { !$0.1 }.map(\.0)
                }
                files.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            } else {
                files = [root]
            }
            for file in files where seen.insert(file).inserted {
                found.append(file)
            }
        }
        if found.isEmpty {
            let what = patterns.isEmpty ? "*_test.lua, *_spec.lua" : "*.lua matching " + patterns.joined(separator: ", ")
            throw Failure(message: "no test files (\(what)) in \(roots.joined(separator: ", "))")
        }
        return found
    }

    /// Where to look when no path is given: a `.busted` file's `ROOT`, else
    /// busted's `spec/` when there is one, else `tests/` (where `cdscript new` puts specs).
    public static func defaultRoots(_ config: BustedConfig?) -> [String] {
        if let roots = config?.roots, !roots.isEmpty { return roots }
        if FileManager.default.fileExists(atPath: "spec") { return ["spec"] }
        return defaultPaths
    }

    public static func isTestFile(_ path: String) -> Bool {
        suffixes.contains { path.hasSuffix($0) }
    }
}
