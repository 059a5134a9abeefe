import CLua
import CLuaShim
import LuaHost

/// busted's event bus, in Lua (Lua/busted_mediator.lua).
enum BustedMediator {
    static let source = String(decoding: PackageResources.busted_mediator_lua, as: UTF8.self)

    /// Pushes the function that makes a mediator; false (nothing pushed) if the chunk did not run.
    static func push(_ L: LuaState) -> Bool {
        let status = L.load(source, chunkName: TestPrelude.chunkName)
        guard status == LUA_OK else {
            L.pop(1)
            return false
        }
        guard L.call(arguments: 0, results: 1) == LUA_OK, L.type(at: -1) == LUA_TFUNCTION else {
            L.pop(1)
            return false
        }
        return true
    }
}
