import CLua
import CLuaShim
import FoundationEssentials

extension LuaHost {
    /// The names in `package.loaded` (modules and plugins the script required,
    /// the standard libraries among them).
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

    /// The files the loaded modules and plugins came from, found as `require`
    /// finds them: the plugin folders (`DIR/NAME.lua`, `DIR/NAME/init.lua`),
    /// then `package.path`. A reload on save follows these files.
    public func loadedModuleFiles() -> Set<String> {
        let templates = plugins.path.flatMap { ["\($0.path)/?.lua", "\($0.path)/?/init.lua"] } + packagePath().split(separator: ";").map(String.init)
        var files: Set<String> = []
        for name in loadedModuleNames() {
            let relative = name.replacing(".", with: "/")
            for template in templates {
                let candidate = template.replacing("?", with: relative)
                if FileManager.default.isReadableFile(atPath: candidate) {
                    files.insert(candidate)
                    break
                }
            }
        }
        return files
    }

    private func packagePath() -> String {
        let L = vm.state
        let base = L.top
        defer { L.setTop(base) }
        L.pushGlobals()
        guard L.rawField(-1, "package") == LUA_TTABLE, L.rawField(-1, "path") == LUA_TSTRING else { return "" }
        return L.string(at: -1) ?? ""
    }
}
