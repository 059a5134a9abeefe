import CLua
import CLuaShim
import CountdownCore
import Foundation
@testable import LuaHost
import ScriptTesting
import TerminalView
import Testing

/// types/cdscript.lua must describe every function the host really installs:
/// the globals and tables of `cdscript run` and of `cdscript test` (and the view,
/// once it is installed), found by walking a real host's globals; and every
/// field of a tick and option of countdown.start, read from where they are defined.
@Suite("The lua-language-server annotation file covers what the host exports")
struct AnnotationTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let annotations = (try? String(contentsOf: root.appendingPathComponent("types/cdscript.lua"), encoding: .utf8)) ?? ""

    /// Names of the functions in an annotation file: `function a.b(`, `function Handle:m(`, `function f(`.
    static var annotated: Set<String> {
        var names: Set<String> = []
        for line in annotations.split(separator: "\n") where line.hasPrefix("function ") {
            let signature = line.dropFirst("function ".count)
            if let paren = signature.firstIndex(of: "(") { names.insert(String(signature[..<paren])) }
        }
        return names
    }

    /// Globals of a plain Lua state with the standard libraries: not ours to annotate.
    static func standardGlobals() -> Set<String> {
        let L = LuaState(luaL_newstate()!)
        defer { lua_close(L.raw) }
        luaL_openlibs(L.raw)
        return Set(globalNames(L).keys)
    }

    /// Every global name and its type.
    static func globalNames(_ L: LuaState) -> [String: Int32] {
        var names: [String: Int32] = [:]
        let top = L.top
        defer { L.setTop(top) }
        lua_rawgeti(L.raw, cd_registry_index(), lua_Integer(LUA_RIDX_GLOBALS))
        L.pushNil()
        while lua_next(L.raw, -2) != 0 {
            if L.type(at: -2) == LUA_TSTRING, let name = lua_tolstring(L.raw, -2, nil) {
                names[String(cString: name)] = L.type(at: -1)
            }
            L.pop(1)
        }
        return names
    }

    /// `prefix.name` for each function in the table at the top of the stack.
    static func functionFields(_ L: LuaState, prefix: String) -> [String] {
        var found: [String] = []
        L.pushNil()
        while lua_next(L.raw, -2) != 0 {
            if L.type(at: -2) == LUA_TSTRING, L.type(at: -1) == LUA_TFUNCTION, let name = lua_tolstring(L.raw, -2, nil) {
                found.append(prefix + "." + String(cString: name))
            }
            L.pop(1)
        }
        return found
    }

    /// The functions a host exports beyond standard Lua, as annotation names.
    static func exported(by host: LuaHost) -> [String] {
        let L = host.vm.state
        let top = L.top
        defer { L.setTop(top) }
        let standard = standardGlobals()
        var names: [String] = []
        for (name, type) in globalNames(L) where !standard.contains(name) {
            if type == LUA_TFUNCTION { names.append(name) }
            if type == LUA_TTABLE {
                lua_getglobal(L.raw, name)
                names += functionFields(L, prefix: name)
                L.pop(1)
            }
        }
        names += host.countdowns.handleMethodNames.map { "Handle:" + $0 }
        return names.sorted()
    }

    @Test("every function of cdscript run has an annotation, the view's included")
    func runHost() {
        let host = LuaHost(scheduler: Scheduler(clock: VirtualClock()), limits: .runDefaults)
        host.installView(ViewController(output: .plain { _ in }))
        let exported = Self.exported(by: host)
        #expect(exported.contains("countdown.start") && exported.contains("countdown.on") && exported.contains("use") && exported.contains("view.label"))
        let missing = exported.filter { !Self.annotated.contains($0) }
        #expect(missing.isEmpty, "not in types/cdscript.lua: \(missing)")
    }

    @Test("every function of cdscript test has an annotation, including expect's matchers")
    func testHost() throws {
        let dir = try temporaryFolder()
        let file = dir + "/probe_spec.lua"
        try write("""
            -- Into the real _G: a spec's own globals live in its file's environment.
            _G.__matchers = {}
            for name, fn in pairs(expect(1)) do
              if type(fn) == "function" then _G.__matchers[#_G.__matchers + 1] = name end
            end
            it("probe", function() end)
            """, to: file)
        final class Box { var host: LuaHost? }
        let box = Box()
        let runner = TestRunner()
        runner.prepareHost = { box.host = $0 }
        _ = runner.run(file: file)
        let host = try #require(box.host)
        var exported = Self.exported(by: host).filter { !$0.hasPrefix("__matchers") }
        let L = host.vm.state
        lua_getglobal(L.raw, "__matchers")
        for i in 1...max(1, L.rawLength(at: -1)) where L.rawLength(at: -1) > 0 {
            L.rawItem(-1, i)
            exported.append("Expectation." + String(cString: lua_tolstring(L.raw, -1, nil)))
            L.pop(1)
        }
        L.pop(1)
        #expect(exported.contains("describe") && exported.contains("clock.advance") && exported.contains("Expectation.to_equal"), "\(exported)")
        let missing = exported.filter { !Self.annotated.contains($0) }
        #expect(missing.isEmpty, "not in types/cdscript.lua: \(missing)")
    }

    /// The `---@field` names of `---@class name` in the annotation file.
    static func annotatedFields(ofClass name: String) -> [String] {
        let lines = annotations.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0 == "---@class \(name)" }) else { return [] }
        var fields: [String] = []
        for line in lines[(start + 1)...] {
            guard line.hasPrefix("---@field ") else { break }
            if let field = line.dropFirst("---@field ".count).split(separator: " ").first { fields.append(String(field)) }
        }
        return fields
    }

    @Test("every field of a tick has its ---@field line in cdscript.Tick, and no other")
    func tickFields() {
        let defined = (0..<Int32(CD_TICK_FIELD_COUNT.rawValue)).compactMap { cd_tick_field_name($0).map { String(cString: $0) } }
        #expect(defined.contains("remaining") && defined.contains("overtime"), "\(defined)")
        let annotated = Self.annotatedFields(ofClass: "cdscript.Tick")
        #expect(Set(annotated) == Set(defined), "types/cdscript.lua's cdscript.Tick: \(annotated); tick.c: \(defined)")
    }

    @Test("every option of countdown.start has its ---@field line in cdscript.StartOptions, and no other")
    func startOptions() {
        #expect(StartOptions.fields.isSuperset(of: ["id", "seconds", "every", "on_tick", "overtime", "on_end_action"]), "\(StartOptions.fields)")
        let annotated = Self.annotatedFields(ofClass: "cdscript.StartOptions")
        #expect(Set(annotated) == StartOptions.fields, "types/cdscript.lua's cdscript.StartOptions: \(annotated.sorted()); countdown.start: \(StartOptions.fields.sorted())")
    }

    @Test("countdown.shortest_every is countdown.start's bound, and the annotations say the same")
    func shortestEvery() throws {
        let host = LuaHost(scheduler: Scheduler(clock: VirtualClock()), limits: .runDefaults)
        let L = host.vm.state
        let top = L.top
        defer { L.setTop(top) }
        lua_getglobal(L.raw, "countdown")
        lua_getfield(L.raw, -1, "shortest_every")
        let value = lua_tonumberx(L.raw, -1, nil)
        #expect(value == Time.seconds(CountdownRange.shortestTick))
        let annotated = try #require(Self.annotations.firstMatch(of: /\ncountdown\.shortest_every = ([0-9.]+)\n/))
        #expect(Double(String(annotated.1)) == value, "types/cdscript.lua: countdown.shortest_every = \(annotated.1)")
        let everyLine = try #require(Self.annotations.split(separator: "\n").first { $0.hasPrefix("---@field every (number|string)? seconds") })
        #expect(everyLine.contains("at least \(StartOptions.minimumEveryText)"), "\(everyLine)")
    }

    @Test("C's quick read of countdown.start knows every option but those only the long way reads")
    func startOptionsInC() {
        let inC = Set((0..<Int32(CD_OPTION_COUNT)).compactMap { cd_start_option_name($0).map { String(cString: $0) } })
        #expect(inC.count == Int(CD_OPTION_COUNT), "one name per CD_OPTION_*: \(inC)")
        #expect(inC.isDisjoint(with: StartOptions.longWayFields))
    }

    @Test("every option countdown.start accepts is read: a value of the wrong type is refused, naming the option")
    func everyAcceptedOptionIsRead() {
        for name in StartOptions.fields.sorted() {
            // The length is given apart from the option under test, so that no other refusal comes first.
            let length = name == "seconds" || name == "at" ? "" : "seconds = 1, "
            let host = LuaHost(scheduler: Scheduler(clock: VirtualClock()), limits: .runDefaults)
            let failure = host.runScript(source: Data("countdown.start{ \(length)\(name) = coroutine.create(print) }".utf8), chunkName: "=options")
            #expect(failure?.message.contains("'\(name)'") == true, "\(name): \(failure?.message ?? "accepted")")
        }
    }

    @Test("the file is a ---@meta file and describes the view API")
    func metaAndView() {
        #expect(Self.annotations.hasPrefix("---@meta"))
        for name in ["view.label", "view.big", "view.progress", "view.button", "view.set", "view.get", "view.title", "view.bell", "view.close"] {
            #expect(Self.annotated.contains(name), "\(name)")
        }
    }
}
