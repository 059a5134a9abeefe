import CLua
import CLuaShim
import Foundation
import LuaHost

/// What `cdscript test` reads of a busted project's `.busted` file: the `ROOT`
/// folders and the file-name `pattern`s of its `_all` and `default` tasks
/// (`default` wins). Other keys are left to busted.
public struct BustedConfig: Equatable, Sendable {
    /// Folders (or files) to search when no path is given.
    public var roots: [String]
    /// Lua patterns a test file's base name must match (busted's `pattern`, default "_spec").
    public var patterns: [String]

    public init(roots: [String] = [], patterns: [String] = []) {
        self.roots = roots
        self.patterns = patterns
    }

    /// The `.busted` file at `path`, nil when there is none; a file that does
    /// not run or does not return a table is an error.
    public static func load(_ path: String = ".busted") throws(TestDiscovery.Failure) -> BustedConfig? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw TestDiscovery.Failure(message: "cannot read \(path)")
        }
        let results: [String]
        do {
            results = try LuaEvaluation.run(Self.reader, arguments: [text, path], results: 2)
        } catch {
            throw TestDiscovery.Failure(message: "\(path): \(error.message)")
        }
        func split(_ s: String) -> [String] { s.split(separator: "\n").map(String.init) }
        return BustedConfig(roots: split(results[0]), patterns: split(results[1]))
    }

    private static let reader = #"""
local text, name = ...
local chunk, err = load(text, "@" .. name, "t")
if not chunk then error(err, 0) end
local ok, conf = pcall(chunk)
if not ok then error(tostring(conf), 0) end
if type(conf) ~= "table" then error("must return a table of tasks (such as {default = {ROOT = {'spec'}}}), got " .. type(conf), 0) end
local function list(v)
  if type(v) == "string" then return { v } end
  if type(v) == "table" then
    local out = {}
    for _, x in ipairs(v) do out[#out + 1] = tostring(x) end
    return out
  end
end
local roots, patterns = {}, {}
for _, task in ipairs({ "_all", "default" }) do
  local t = conf[task]
  if type(t) == "table" then
    roots = list(t.ROOT) or roots
    patterns = list(t.pattern) or patterns
  end
end
return table.concat(roots, "\n"), table.concat(patterns, "\n")
"""#

    /// Which of `names` (base names) match one of `patterns` as Lua patterns.
    public static func matching(_ names: [String], patterns: [String]) -> [Bool] {
        guard !names.isEmpty else { return [] }
        let source = #"""
local names, patterns = ...
local keep = {}
for name in (names .. "\n"):gmatch("(.-)\n") do
  local ok = false
  for p in (patterns .. "\n"):gmatch("(.-)\n") do
    if p ~= "" and pcall(string.find, name, p) and name:find(p) then ok = true break end
  end
  keep[#keep + 1] = ok and "1" or "0"
end
return table.concat(keep)
"""#
        let flags = (try? LuaEvaluation.run(source, arguments: [names.joined(separator: "\n"), patterns.joined(separator: "\n")], results: 1).first) ?? ""
        return names.indices.map { i in flags.count > i && flags[flags.index(flags.startIndex, offsetBy: i)] == "1" }
    }
}

/// Runs a little Lua (string arguments, string results) in a throwaway state.
enum LuaEvaluation {
    struct Failure: Error { let message: String }

    static func run(_ source: String, arguments: [String], results: Int32) throws(Failure) -> [String] {
        let vm = LuaVM(limits: ScriptLimits(memoryLimit: 64 << 20, instructionBudget: 10_000_000))
        let L = vm.state
        var text = source
        let status = text.withUTF8 { buffer in
            buffer.withMemoryRebound(to: CChar.self) { cd_load_text(L, $0.baseAddress, $0.count, "=(cdscript test)") }
        }
        guard status == LUA_OK else { throw Failure(message: L.string(at: -1) ?? "?") }
        for argument in arguments { L.push(argument) }
        guard cd_pcall_traceback(L, Int32(arguments.count), results) == LUA_OK else {
            throw Failure(message: Traceback.split(L.string(at: -1) ?? "?").message)
        }
        var out: [String] = []
        for i in 0..<results { out.append(L.string(at: -results + i) ?? "") }
        return out
    }
}
