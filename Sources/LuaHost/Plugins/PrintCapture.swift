import CLua
import CLuaShim
import FoundationEssentials
import CountdownCore

extension PluginBinding {
    /// Replaces the globals `print` and `warn` with ones that hand each line to
    /// `sink` instead of writing it to stdout or stderr (a warning as "Lua
    /// warning: ...", whether or not `warn("@on")` was called). `cdscript plugins`
    /// lists plugins by loading them: what one prints at its top level is shown
    /// escaped, never passed raw to the terminal (where an OSC 52 could write the
    /// clipboard).
    public func captureOutput(_ sink: @escaping (String) -> Void) {
        printSink = sink
        let L = vm.state
        L.pushHostFunction(Self.capturedPrint, context: host.context)
        host.setGlobal("print")
        L.pushHostFunction(Self.capturedWarn, context: host.context)
        host.setGlobal("warn")
    }

    /// `print(...)` into `printSink`: values separated by tabs, as Lua's print.
    /// No `tostring` or `__tostring` is called (a metamethod could raise across
    /// this Swift frame): tables and functions are shown by type and address.
    static let capturedPrint: cd_host_function = { L, context in
        LuaHost.hostCall(L, context) { host, L throws(APIError) in
            let count = L.top
            var parts: [String] = []
            if count > 0 {
                for index in 1...count { parts.append(printedForm(L, at: index)) }
            }
            host.plugins.printSink?(parts.joined(separator: "\t"))
            return 0
        }
    }

    /// `warn(...)` into `printSink`: the pieces joined; "@on" and "@off" ignored.
    static let capturedWarn: cd_host_function = { L, context in
        LuaHost.hostCall(L, context) { host, L throws(APIError) in
            let count = L.top
            var text = ""
            if count > 0 {
                for index in 1...count { text += printedForm(L, at: index) }
            }
            if count == 1, text.hasPrefix("@") { return 0 }
            host.plugins.printSink?("Lua warning: " + text)
            return 0
        }
    }

    private static func printedForm(_ L: LuaState, at index: Int32) -> String {
        switch L.type(at: index) {
        case LUA_TNIL: return "nil"
        case LUA_TBOOLEAN: return lua_toboolean(L.raw, index) != 0 ? "true" : "false"
        case LUA_TSTRING: return L.string(at: index) ?? ""
        case LUA_TNUMBER:
            if lua_isinteger(L.raw, index) != 0 { return String(lua_tointegerx(L.raw, index, nil)) }
            let number = lua_tonumberx(L.raw, index, nil)
            let text = CFormat.string("%.14g", number)
            return text.contains(where: { !$0.isNumber && $0 != "-" }) ? text : text + ".0"
        default:
            return "\(L.typeName(at: index)): \(lua_topointer(L.raw, index).map { "\($0)" } ?? "?")"
        }
    }
}
