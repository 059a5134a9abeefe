import CLua
import CLuaShim

/// busted's event bus, in Lua (Lua/busted_mediator.lua).
enum BustedMediator {
    static let source = String(decoding: PackageResources.busted_mediator_lua, as: UTF8.self)

    /// Pushes the function that makes a mediator; false (nothing pushed) if the chunk did not run.
    static func push(_ L: OpaquePointer) -> Bool {
        var text = source
        let status = text.withUTF8 { buffer in
            buffer.withMemoryRebound(to: CChar.self) { cd_load_text(L, $0.baseAddress, $0.count, TestPrelude.chunkName) }
        }
        guard status == LUA_OK else {
            cd_pop(L, 1)
            return false
        }
        guard cd_pcall_traceback(L, 0, 1) == LUA_OK, lua_type(L, -1) == LUA_TFUNCTION else {
            cd_pop(L, 1)
            return false
        }
        return true
    }
}
