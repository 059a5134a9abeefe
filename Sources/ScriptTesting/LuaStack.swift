import CLua
import LuaHost

/// The table reads the runner needs, on LuaHost's stack helpers. Like those,
/// none of them can raise a Lua error: tables are read with `lua_raw*` only.
extension OpaquePointer {
    /// `t[key]` of the table at `index` as a string, without metamethods.
    func textField(_ index: Int32, _ key: String) -> String? {
        rawField(index, key)
        defer { pop() }
        return string(at: -1)
    }

    /// `t[key]` of the table at `index` as an integer, without metamethods.
    func integerField(_ index: Int32, _ key: String) -> Int? {
        rawField(index, key)
        defer { pop() }
        return number(at: -1).flatMap { Int(exactly: $0.rounded()) }
    }

    /// Pushes `strings` as a new list table.
    func pushList(_ strings: [String]) {
        lua_createtable(self, Int32(strings.count), 0)
        for (i, text) in strings.enumerated() {
            push(text)
            lua_rawseti(self, -2, lua_Integer(i + 1))
        }
    }
}
