import CLua
import CLuaShim
import FoundationEssentials
import LuaHost

/// A busted project's `.busted` file as `cdscript test` reads it: the keys of
/// one task (`-r NAME`, else `default`) over those of `_all`, with busted's
/// meaning (ScriptRunning/TestSettings.swift applies them under the command line's).
public struct BustedConfig: Equatable, Sendable {
    /// Every key's values, in the file's order for lists (`ROOT = {"a", "b"}`);
    /// a single value is a list of one. Booleans and numbers as Lua writes them.
    public var values: [String: [String]]

    public init(values: [String: [String]]) {
        self.values = values
    }

    public init(roots: [String] = [], patterns: [String] = []) {
        values = [:]
        if !roots.isEmpty { values["ROOT"] = roots }
        if !patterns.isEmpty { values["pattern"] = patterns }
    }

    /// Folders (or files) to search when no path is given.
    public var roots: [String] { values["ROOT"] ?? [] }
    /// Lua patterns a test file's base name must match (busted's `pattern`).
    public var patterns: [String] { values["pattern"] ?? values["p"] ?? [] }

    /// The values of the first of `keys` present (busted takes short and long names alike).
    public func list(_ keys: String...) -> [String]? {
        keys.lazy.compactMap { values[$0] }.first
    }

    /// A single value: the last one of a list.
    public func text(_ keys: String...) -> String? {
        keys.lazy.compactMap { values[$0]?.last }.first
    }

    public func flag(_ keys: String...) -> Bool? {
        keys.lazy.compactMap { values[$0]?.last }.first.map { $0 != "false" && $0 != "nil" }
    }

    /// The `.busted` file at `path` with task `run` (nil: `default`), nil when
    /// there is no file; a file that does not run, does not return a table or
    /// lacks the task is an error.
    public static func load(_ path: String = ".busted", run: String? = nil) throws(TestDiscovery.Failure) -> BustedConfig? {
        guard FileManager.default.fileExists(atPath: path) else {
            if let run { throw TestDiscovery.Failure(message: "-r/--run \(run): there is no \(path) file with tasks") }
            return nil
        }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw TestDiscovery.Failure(message: "cannot read \(path)")
        }
        let lines: String
        do {
            lines = try LuaEvaluation.run(Self.reader, arguments: [text, path, run ?? ""], results: 1)[0]
        } catch {
            throw TestDiscovery.Failure(message: "\(path): \(error.message)")
        }
        var values: [String: [String]] = [:]
        for line in lines.split(separator: "\n") {
            guard let tab = line.firstIndex(of: "\t") else { continue }
            let value = String(line[line.index(after: tab)...].replacing("\u{1}", with: "\n"))
            values[String(line[..<tab]), default: []].append(value)
        }
        return BustedConfig(values: values)
    }

    private static let reader = String(decoding: PackageResources.busted_config_lua, as: UTF8.self)

    /// Which of `names` (base names) match one of `patterns` as Lua patterns.
    public static func matching(_ names: [String], patterns: [String]) -> [Bool] {
        guard !names.isEmpty else { return [] }
        let source = String(decoding: PackageResources.pattern_filter_lua, as: UTF8.self)
        let flags = (try? LuaEvaluation.run(source, arguments: [names.joined(separator: "\n"), patterns.joined(separator: "\n")], results: 1).first) ?? ""
        return names.indices.map { i in flags.count > i && flags[flags.index(flags.startIndex, offsetBy: i)] == "1" }
    }
}

/// Runs a little Lua (string arguments, string results) in a throwaway state.
enum LuaEvaluation {
    struct Failure: Error { let message: String }

    /// `budget`: instructions the run may take (0: no limit, for work that
    /// grows with a file of the project's and is linear in it).
    static func run(_ source: String, arguments: [String], results: Int32, budget: Int64 = 10_000_000) throws(Failure) -> [String] {
        let vm = LuaVM(limits: ScriptLimits(memoryLimit: 64 << 20, instructionBudget: budget))
        let L = vm.state
        let status = L.load(source, chunkName: "=(cdscript test)")
        guard status == LUA_OK else { throw Failure(message: L.string(at: -1) ?? "?") }
        for argument in arguments { L.push(argument) }
        guard L.call(arguments: Int32(arguments.count), results: results) == LUA_OK else {
            throw Failure(message: Traceback.split(L.string(at: -1) ?? "?").message)
        }
        var out: [String] = []
        for i in 0..<results { out.append(L.string(at: -results + i) ?? "") }
        return out
    }
}
