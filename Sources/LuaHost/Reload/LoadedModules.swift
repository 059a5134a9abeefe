import CLua
import CLuaShim

extension LuaHost {
    /// The names in `package.loaded` (modules and plugins the script required,
    /// the standard libraries among them), for deciding which saved files a
    /// reload follows.
    public func loadedModuleNames() -> Set<String> {
        let L = vm.state
        let base = L.top
        defer { L.setTop(base) }
        var names: Set<String> = []
        L.pushGlobals()
        guard L.rawField(-1, "package") == LUA_TTABLE, L.rawField(-1, "loaded") == LUA_TTABLE else { return names }
        lua_pushnil(L.raw)
        while lua_next(L.raw, -2) != 0 {
            if lua_type(L.raw, -2) == LUA_TSTRING, let name = L.string(at: -2) { names.insert(name) }
            L.pop()
        }
        return names
    }
}
