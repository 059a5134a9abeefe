import CLuaShim

extension LuaHost {
    /// The linked Lua library's release, such as "Lua 5.4.4" (read from its
    /// `lua_ident`, so an upgraded shared library shows its own version).
    /// `cdscript --version` prints it: read byte by byte, because the string
    /// library's generic `firstRange(of:)` cost a third of that command's own
    /// work in type look-ups the first time it ran (docs/performance.md).
    public static var luaRelease: String {
        let ident = Array(String(cString: cd_lua_ident()).utf8)
        guard let start = ident.endOfFirst(Array("$LuaVersion: ".utf8)) else { return String(decoding: ident, as: UTF8.self) }
        let rest = ident[start...]
        let end = rest.startOfFirst(Array("  ".utf8)) ?? rest.startOfFirst(Array(" $".utf8)) ?? rest.endIndex
        return String(decoding: rest[..<end], as: UTF8.self)
    }
}

private extension ArraySlice<UInt8> {
    /// Where `needle` first starts, if it occurs.
    func startOfFirst(_ needle: [UInt8]) -> Int? {
        guard needle.count <= count else { return nil }
        return (startIndex...(endIndex - needle.count)).first { self[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}

private extension Array<UInt8> {
    /// Just past where `needle` first ends, if it occurs.
    func endOfFirst(_ needle: [UInt8]) -> Int? {
        self[...].startOfFirst(needle).map { $0 + needle.count }
    }
}
