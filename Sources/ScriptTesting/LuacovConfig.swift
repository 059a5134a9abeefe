import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// What `--coverage` takes from luacov's configuration file (`.luacov`):
/// `include` and `exclude` (Lua patterns matched against a file's name without
/// `.lua`) and `modules` (module name -> file, which adds patterns to `include`
/// and names the file in reports), applied as luacov's runner and reporter do.
public struct LuacovConfig: Equatable, Sendable {
    public var include: [String] = []
    public var exclude: [String] = []
    /// `modules` as luacov's runner turns it into patterns, in the order it tries them.
    public var modules: [(pattern: String, file: String)] = []

    public init(include: [String] = [], exclude: [String] = [], modules: [(pattern: String, file: String)] = []) {
        self.include = include
        self.exclude = exclude
        self.modules = modules
    }

    public static func == (a: LuacovConfig, b: LuacovConfig) -> Bool {
        a.include == b.include && a.exclude == b.exclude
            && a.modules.map(\.pattern) == b.modules.map(\.pattern) && a.modules.map(\.file) == b.modules.map(\.file)
    }

    /// The file at `path`; no file there: the defaults (every file counts).
    public static func read(_ path: String = ".luacov") throws(TestDiscovery.Failure) -> LuacovConfig {
        guard FileManager.default.fileExists(atPath: path) else { return LuacovConfig() }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw TestDiscovery.Failure(message: "cannot read \(path)") }
        do {
            let lists = try LuaEvaluation.run(reader, arguments: [text, path], results: 3)
            let pairs = split(lists[2])
            let modules = stride(from: 0, to: pairs.count - 1, by: 2).map { (pattern: pairs[$0], file: pairs[$0 + 1]) }
            return LuacovConfig(include: split(lists[0]), exclude: split(lists[1]), modules: modules)
        } catch {
            throw TestDiscovery.Failure(message: "\(path): \(error.message)")
        }
    }

    /// For each of `names` (luacov's names: relative, without "./"), the name
    /// luacov's reporter shows it under, or nil when the configuration leaves it
    /// out. Names must not hold line breaks (CoverageReport refuses those first).
    func reportNames(_ names: [String]) throws(TestDiscovery.Failure) -> [String?] {
        guard !names.isEmpty else { return [] }
        let joined = { (list: [String]) in list.joined(separator: "\n") }
        do {
            let out = try LuaEvaluation.run(Self.namer, arguments: [
                joined(include), joined(exclude), joined(modules.flatMap { [$0.pattern, $0.file] }), joined(names),
            ], results: 1)[0]
            let lines = out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            return names.indices.map { $0 < lines.count && !lines[$0].isEmpty ? lines[$0] : nil }
        } catch {
            throw TestDiscovery.Failure(message: ".luacov: \(error.message)")
        }
    }

    private static func split(_ s: String) -> [String] { s.split(separator: "\n").map(String.init) }

    private static let reader = String(decoding: PackageResources.luacov_config_lua, as: UTF8.self)
    private static let namer = String(decoding: PackageResources.luacov_names_lua, as: UTF8.self)
}
