import CLua
import CLuaShim

/// What the built-in plugins would have done, recorded instead of done: in
/// `cdscript test`, `exec` and `notify` run no command, `log` writes no file and
/// `bell` rings nothing. A test reads the calls with `plugin_calls(name)`.
public final class PluginRecorder {
    /// One side effect a plugin asked for.
    public struct Call: Equatable, Sendable {
        /// "exec", "notify", "log" or "bell".
        public var plugin: String
        /// The command of `exec` and `notify` (program first), never run.
        public var argv: [String]?
        /// The file `log` would have appended to, and the line.
        public var path: String?
        public var line: String?
    }

    public private(set) var calls: [Call] = []

    public init() {}

    func record(_ call: Call) { calls.append(call) }

    public func removeAll() { calls.removeAll() }

    /// Pushes the calls of `plugin` (all when nil) as a list of tables
    /// `{plugin =, argv =, path =, line =}`.
    public func push(_ L: OpaquePointer, plugin: String?) {
        let chosen = calls.filter { plugin == nil || $0.plugin == plugin }
        lua_createtable(L, Int32(chosen.count), 0)
        for (i, call) in chosen.enumerated() {
            lua_createtable(L, 0, 4)
            L.push(call.plugin)
            L.setRawField(-2, "plugin")
            if let argv = call.argv {
                lua_createtable(L, Int32(argv.count), 0)
                for (j, argument) in argv.enumerated() {
                    L.push(argument)
                    lua_rawseti(L, -2, lua_Integer(j + 1))
                }
                L.setRawField(-2, "argv")
            }
            if let path = call.path {
                L.push(path)
                L.setRawField(-2, "path")
            }
            if let line = call.line {
                L.push(line)
                L.setRawField(-2, "line")
            }
            lua_rawseti(L, -2, lua_Integer(i + 1))
        }
    }
}

extension LuaHost {
    /// Pushes a snapshot of what scripts registered with the host: the global
    /// hooks of every event (`countdown.on`, plugins' hooks included) and the
    /// named formatters. `restoreRegistrations` puts it back; the test runner
    /// does so after every test, so that nothing registered reaches the next one.
    public func pushRegistrations(_ L: OpaquePointer) {
        lua_createtable(L, 0, 2)
        // Each event's list is replaced, never changed in place: keeping the lists is a snapshot.
        cd_push_ref(L, globalHooksRef)
        lua_createtable(L, 4, 0)
        for i in 1...4 {
            lua_rawgeti(L, -2, lua_Integer(i))
            lua_rawseti(L, -2, lua_Integer(i))
        }
        L.setRawField(-3, "hooks")
        cd_pop(L, 1)
        lua_createtable(L, 0, 4)
        copyTable(L, from: formattersRef)
        L.setRawField(-2, "formatters")
    }

    /// Puts back the registrations of a snapshot made by `pushRegistrations`, at `index`.
    public func restoreRegistrations(_ L: OpaquePointer, from index: Int32) {
        let snapshot = lua_absindex(L, index)
        guard lua_type(L, snapshot) == LUA_TTABLE else { return }
        let base = lua_gettop(L)
        defer { lua_settop(L, base) }
        cd_push_ref(L, globalHooksRef)
        L.rawField(snapshot, "hooks")
        guard lua_type(L, -1) == LUA_TTABLE else { return }
        var counts: [Int] = []
        for i in 1...4 {
            lua_rawgeti(L, -1, lua_Integer(i))
            counts.append(Int(lua_rawlen(L, -1)))
            lua_rawseti(L, -3, lua_Integer(i))
        }
        (startHookCount, tickHookCount, doneHookCount, cancelHookCount) = (counts[0], counts[1], counts[2], counts[3])
        lua_settop(L, base)
        // The formatters table is the prelude's own (an upvalue): it is emptied and refilled.
        cd_push_ref(L, formattersRef)
        let formatters = lua_gettop(L)
        while true {
            lua_pushnil(L)
            guard lua_next(L, formatters) != 0 else { break }
            cd_pop(L, 1)
            lua_pushnil(L)
            lua_rawset(L, formatters)
        }
        L.rawField(snapshot, "formatters")
        guard lua_type(L, -1) == LUA_TTABLE else { return }
        lua_pushnil(L)
        while lua_next(L, -2) != 0 {
            lua_pushvalue(L, -2)
            lua_rotate(L, -2, 1)
            lua_rawset(L, formatters)
        }
    }

    /// Copies the table at registry[ref] into the table on top of the stack.
    private func copyTable(_ L: OpaquePointer, from ref: Int32) {
        let target = lua_gettop(L)
        cd_push_ref(L, ref)
        let source = lua_gettop(L)
        lua_pushnil(L)
        while lua_next(L, source) != 0 {
            lua_pushvalue(L, -2)
            lua_rotate(L, -2, 1)
            lua_rawset(L, target)
        }
        cd_pop(L, 1)
    }
}
