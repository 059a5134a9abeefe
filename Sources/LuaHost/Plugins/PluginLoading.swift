import CLua
import CLuaShim
import FoundationEssentials

extension PluginBinding {
    /// Loads a plugin as `require` would, without setting it up: its description
    /// (the module's `description` field) or the error, with the file and line.
    public func loadPlugin(named name: String) -> Result<String?, ScriptFailure> {
        let source = "local m = require(...) return type(m) == 'table' and rawget(m, 'description') or nil"
        let L = vm.state
        let base = L.top
        defer { L.setTop(base) }
        guard L.load(source, chunkName: "=[cdscript plugins]") == LUA_OK else {
            return .failure(ScriptFailure(kind: .syntax, message: L.string(at: -1) ?? "?"))
        }
        L.push(name)
        let status = L.call(arguments: 1, results: 1)
        guard status == LUA_OK else {
            let full = host.hookFailureMessage(L, status: status)
            let (message, _) = LuaHost.splitTraceback(full)
            return .failure(ScriptFailure(kind: .runtime, message: message))
        }
        return .success(L.string(at: -1))
    }
}
