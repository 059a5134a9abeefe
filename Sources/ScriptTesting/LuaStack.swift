import CLua
import CLuaShim

/// The few stack operations the runner needs. Like LuaHost's, none of them can
/// raise a Lua error: tables are read with `lua_raw*` only.
extension OpaquePointer {
    func pushText(_ string: String) {
        var copy = string
        copy.withUTF8 { buffer in
            _ = lua_pushlstring(self, buffer.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }, buffer.count)
        }
    }

    /// The string at `index` without conversion; nil unless it is a string.
    func text(at index: Int32) -> String? {
        guard lua_type(self, index) == LUA_TSTRING else { return nil }
        var length = 0
        guard let pointer = cd_to_string(self, index, &length) else { return nil }
        return pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
    }

    /// `t[key]` of the table at `index` as a string, without metamethods.
    func textField(_ index: Int32, _ key: String) -> String? {
        let table = lua_absindex(self, index)
        pushText(key)
        lua_rawget(self, table)
        defer { cd_pop(self, 1) }
        return text(at: -1)
    }

    /// `t[key]` of the table at `index` as an integer, without metamethods.
    func integerField(_ index: Int32, _ key: String) -> Int? {
        let table = lua_absindex(self, index)
        pushText(key)
        lua_rawget(self, table)
        defer { cd_pop(self, 1) }
        guard lua_type(self, -1) == LUA_TNUMBER else { return nil }
        return Int(exactly: lua_tonumberx(self, -1, nil).rounded())
    }
}
