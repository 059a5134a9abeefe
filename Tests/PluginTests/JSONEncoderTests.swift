import CLua
import CLuaShim
import Foundation
@testable import LuaHost
import Testing

/// The JSON encoder of the built-in plugins (Lua/json.lua; `log` writes its lines with it).
@Suite("api.json: Lua values as JSON")
struct JSONEncoderTests {
    /// Encodes the value of a Lua expression with the host's encoder, in a plain Lua state.
    static func encode(_ expression: String) -> String? {
        let L = luaL_newstate()!
        defer { lua_close(L) }
        luaL_openlibs(L)
        // As the host runs it: the build's bytecode, called with the library snapshot.
        let load = { (bytes: [UInt8]) in
            bytes.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { luaL_loadbufferx(L, $0.baseAddress, $0.count, "=json", "b") } }
        }
        guard load(HostBytecode.json) == LUA_OK, load(HostBytecode.std_snapshot) == LUA_OK,
              cd_pcall_traceback(L, 0, 1) == LUA_OK, cd_pcall_traceback(L, 1, 1) == LUA_OK else { return nil }
        lua_setglobal(L, "json")
        guard luaL_loadstring(L, "return json(\(expression))") == LUA_OK, cd_pcall_traceback(L, 0, 1) == LUA_OK,
              let text = lua_tolstring(L, -1, nil) else { return nil }
        return String(cString: text)
    }

    @Test("a sequence is a JSON array, nested ones too", arguments: [
        ("{10, 20}", "[10,20]"),
        ("{ laps = {1.5, 2}, id = 'tea' }", "{\"id\":\"tea\",\"laps\":[1.5,2]}"),
        ("{ {a = 1}, {'x', true} }", "[{\"a\":1},[\"x\",true]]"),
    ])
    func sequences(expression: String, json: String) throws {
        let text = try #require(Self.encode(expression))
        #expect(text == json)
        #expect(throws: Never.self) { try JSONSerialization.jsonObject(with: Data(text.utf8)) }
    }

    @Test("a table with holes or other keys is an object whose number keys keep their values", arguments: [
        ("{1, x = 2}", "{\"1\":1,\"x\":2}"),
        ("{[1] = 'a', [3] = 'c'}", "{\"1\":\"a\",\"3\":\"c\"}"),
        ("{}", "{}"),
        ("{ event = 'tick', remaining = 2.5 }", "{\"event\":\"tick\",\"remaining\":2.5}"),
    ])
    func objects(expression: String, json: String) throws {
        #expect(Self.encode(expression) == json)
    }
}
