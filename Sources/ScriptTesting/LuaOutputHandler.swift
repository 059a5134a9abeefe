import CLua
import CLuaShim
import Foundation
import LuaHost

/// One of busted's output handlers written in Lua (`-o FILE.lua`, `-o MODULE`),
/// run in a Lua state of its own (Lua/output_handler.lua): it is loaded as
/// busted loads it and hears busted's events for each file's results as the
/// file finishes, and the suite's end after the last. It writes what it writes.
public final class LuaOutputHandler {
    public struct Failure: Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    private let vm: LuaVM
    private let driver: Int32

    /// Loads the handler `name` with busted's options for it (`arguments` are -Xoutput's).
    public init(name: String, arguments: [String], verbose: Bool, suppressPending: Bool, deferPrint: Bool) throws(Failure) {
        vm = LuaVM()
        let L = vm.state
        var text = String(decoding: PackageResources.output_handler_lua, as: UTF8.self)
        let status = text.withUTF8 { buffer in
            buffer.withMemoryRebound(to: CChar.self) { cd_load_text(L, $0.baseAddress, $0.count, "=(cdscript output handler)") }
        }
        guard status == LUA_OK else { throw Failure(message: "internal error: \(L.string(at: -1) ?? "?")") }
        L.push(name)
        lua_createtable(L, 0, 6)
        for (key, on) in [("verbose", verbose), ("suppressPending", suppressPending), ("deferPrint", deferPrint), ("enableSound", false)] {
            lua_pushboolean(L, on ? 1 : 0)
            lua_setfield(L, -2, key)
        }
        L.push("en")
        lua_setfield(L, -2, "language")
        L.push("utfTerminal")
        lua_setfield(L, -2, "defaultOutput")
        L.pushList(arguments)
        lua_setfield(L, -2, "arguments")
        guard BustedMediator.push(L) else { throw Failure(message: "internal error: the event bus did not load") }
        guard cd_pcall_traceback(L, 3, 1) == LUA_OK, lua_type(L, -1) == LUA_TTABLE else {
            throw Failure(message: Traceback.split(L.string(at: -1) ?? "?").message)
        }
        driver = cd_ref(L)
    }

    /// Tells the handler one file's results; an error it raises is returned.
    public func file(_ report: FileReport) -> String? {
        call("file") { L in
            lua_createtable(L, 0, 3)
            L.push(report.path)
            lua_setfield(L, -2, "path")
            if let loadError = report.loadError {
                L.push(loadError)
                lua_setfield(L, -2, "load_error")
            }
            lua_createtable(L, Int32(report.results.count), 0)
            for (i, result) in report.results.enumerated() {
                Self.push(L, result)
                lua_rawseti(L, -2, lua_Integer(i + 1))
            }
            lua_setfield(L, -2, "results")
            return 1
        }
    }

    /// The suite's end (and busted's `exit`): most handlers write their summary here.
    public func finish() -> String? {
        call("finish") { _ in 0 }
    }

    private func call(_ name: String, arguments: (OpaquePointer) -> Int32) -> String? {
        let L = vm.state
        let base = lua_gettop(L)
        defer { lua_settop(L, base) }
        cd_push_ref(L, driver)
        L.rawField(-1, name)
        let count = arguments(L)
        guard cd_pcall_traceback(L, count, 0) == LUA_OK else {
            return "the output handler raised: " + Traceback.split(L.string(at: -1) ?? "?").message
        }
        return nil
    }

    private static func push(_ L: OpaquePointer, _ result: TestResult) {
        lua_createtable(L, 0, 10)
        L.pushList(result.names.isEmpty ? [result.name] : result.names)
        lua_setfield(L, -2, "names")
        let status: String
        switch result.status {
        case .passed: status = "passed"
        case .failed: status = "failed"
        case .skipped: status = "skipped"
        }
        let fields: [(String, String?)] = [("status", status), ("descriptor", result.descriptor),
                                          ("message", result.status == .failed ? FailureText(result).headline : result.message),
                                          ("traceback", result.traceback)]
        for (key, value) in fields {
            guard let value else { continue }
            L.push(value)
            lua_setfield(L, -2, key)
        }
        lua_pushinteger(L, lua_Integer(result.line))
        lua_setfield(L, -2, "line")
        lua_pushboolean(L, result.isError ? 1 : 0)
        lua_setfield(L, -2, "is_error")
        if let location = result.location, let colon = location.lastIndex(of: ":"), let line = Int(location[location.index(after: colon)...]) {
            L.push(String(location[..<colon]))
            lua_setfield(L, -2, "file")
            lua_pushinteger(L, lua_Integer(line))
            lua_setfield(L, -2, "failure_line")
        }
    }
}
