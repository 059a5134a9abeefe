import CLuaShim

extension LuaHost {
    /// The linked Lua library's release, such as "Lua 5.4.4" (read from its
    /// `lua_ident`, so an upgraded shared library shows its own version).
    public static var luaRelease: String {
        let ident = String(cString: cd_lua_ident())
        guard let start = ident.firstRange(of: "$LuaVersion: ")?.upperBound else { return ident }
        let rest = ident[start...]
        let end = rest.firstRange(of: "  ")?.lowerBound ?? rest.firstRange(of: " $")?.lowerBound ?? rest.endIndex
        return String(rest[..<end])
    }
}
