import CLua
import LuaHost

/// A plain Lua value, taken out of one Lua state to be put into another: what a
/// test and the other processes it started (each its own state) pass each other.
indirect enum LuaValue {
    case none
    case boolean(Bool)
    case integer(lua_Integer)
    case number(Double)
    case string([UInt8])
    case table([(key: LuaValue, value: LuaValue)])

    struct Unsupported: Error, CustomStringConvertible {
        let description: String
    }

    /// How deep tables may nest (a table that holds itself would never end).
    static let depthLimit = 32

    /// Reads the value at `index` of `L`; tables are read raw (no metamethods).
    static func read(_ L: LuaState, at index: Int32, depth: Int = 0) throws(Unsupported) -> LuaValue {
        let index = lua_absindex(L.raw, index)
        switch L.type(at: index) {
        case LUA_TNONE, LUA_TNIL:
            return .none
        case LUA_TBOOLEAN:
            return .boolean(L.boolean(at: index))
        case LUA_TNUMBER:
            if lua_isinteger(L.raw, index) != 0 { return .integer(lua_tointegerx(L.raw, index, nil)) }
            return .number(lua_tonumberx(L.raw, index, nil))
        case LUA_TSTRING:
            var length = 0
            let pointer = lua_tolstring(L.raw, index, &length)!
            return .string(Array(UnsafeRawBufferPointer(start: pointer, count: length)))
        case LUA_TTABLE:
            guard depth < depthLimit else {
                throw Unsupported(description: "tables nested more than \(depthLimit) deep (one that holds itself?) cannot pass between processes")
            }
            guard lua_checkstack(L.raw, 3) != 0 else { throw Unsupported(description: "out of Lua stack") }
            var entries: [(key: LuaValue, value: LuaValue)] = []
            L.pushNil()
            while lua_next(L.raw, index) != 0 {
                do {
                    let key = try read(L, at: -2, depth: depth + 1)
                    let value = try read(L, at: -1, depth: depth + 1)
                    entries.append((key, value))
                } catch {
                    L.pop(2)
                    throw error
                }
                L.pop()
            }
            return .table(entries)
        default:
            throw Unsupported(description: "a \(L.typeName(at: index)) cannot pass between processes (only nil, booleans, numbers, strings and tables of them)")
        }
    }

    /// Pushes the value onto `L`.
    func push(_ L: LuaState) {
        lua_checkstack(L.raw, 3)
        switch self {
        case .none: L.pushNil()
        case .boolean(let flag): L.push(flag)
        case .integer(let value): lua_pushinteger(L.raw, value)
        case .number(let value): lua_pushnumber(L.raw, value)
        case .string(let bytes):
            bytes.withUnsafeBufferPointer { buffer in
                _ = buffer.withMemoryRebound(to: CChar.self) { lua_pushlstring(L.raw, $0.baseAddress, $0.count) }
            }
        case .table(let entries):
            L.pushTable(fields: Int32(min(entries.count, Int(Int32.max))))
            for entry in entries {
                entry.key.push(L)
                entry.value.push(L)
                lua_rawset(L.raw, -3)
            }
        }
    }
}
