import Testing
import LuaHost

@Suite("The linked Lua's release")
struct LuaReleaseTests {
    @Test("is read from lua_ident as `Lua 5.4.N`, what `lua5.4 -v` starts with")
    func release() throws {
        let release = LuaHost.luaRelease
        let parts = release.split(separator: " ")
        #expect(parts.count == 2 && parts[0] == "Lua", "\(release)")
        let numbers = parts.last.map { $0.split(separator: ".").map { Int($0) } } ?? []
        #expect(numbers.count == 3 && numbers.prefix(2) == [5, 4] && numbers[2] != nil, "\(release)")
    }
}
