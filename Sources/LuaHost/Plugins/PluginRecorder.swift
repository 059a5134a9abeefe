import CLua
import CLuaShim

/// What the built-in plugins would have done, recorded instead of done: in
/// `cdscript test`, `exec` and `notify` run no command, `log` writes no file and
/// `bell` rings nothing, `outfile` replaces no file. A test reads the calls with `plugin_calls(name)`.
public final class PluginRecorder {
    /// One side effect a plugin asked for.
    public struct Call: Equatable, Sendable {
        /// "exec", "notify", "log", "outfile" or "bell".
        public var plugin: String
        /// The command of `exec` and `notify` (program first), never run.
        public var argv: [String]?
        /// The file `log` would have appended to, and the line (`outfile`: the
        /// file it would have replaced, and the text).
        public var path: String?
        public var line: String?
    }

    public private(set) var calls: [Call] = []

    public init() {}

    func record(_ call: Call) { calls.append(call) }

    public func removeAll() { calls.removeAll() }

    /// Pushes the calls of `plugin` (all when nil) as a list of tables
    /// `{plugin =, argv =, path =, line =}`.
    public func push(_ L: LuaState, plugin: String?) {
        let chosen = calls.filter { plugin == nil || $0.plugin == plugin }
        L.pushTable(array: Int32(chosen.count))
        for (i, call) in chosen.enumerated() {
            L.pushTable(fields: 4)
            L.push(call.plugin)
            L.setRawField(-2, "plugin")
            if let argv = call.argv {
                L.pushTable(array: Int32(argv.count))
                for (j, argument) in argv.enumerated() {
                    L.push(argument)
                    L.setRawItem(-2, j + 1)
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
            L.setRawItem(-2, i + 1)
        }
    }
}

extension PluginBinding {
    /// Pushes a snapshot of what scripts registered with the host: the global
    /// hooks of every event (`countdown.on`, plugins' hooks included) and the
    /// named formatters. `restoreRegistrations` puts it back; the test runner
    /// does so after every test, so that nothing registered reaches the next one.
    public func pushRegistrations(_ L: LuaState) {
        L.pushTable(fields: 2)
        // Each event's list is replaced, never changed in place: keeping the lists is a snapshot.
        L.pushRef(globalHooksRef)
        L.pushTable(array: 4)
        for i in 1...4 {
            L.rawItem(-2, i)
            L.setRawItem(-2, i)
        }
        L.setRawField(-3, "hooks")
        L.pop(1)
        L.pushTable(fields: 4)
        copyTable(L, from: formattersRef)
        L.setRawField(-2, "formatters")
    }

    /// Puts back the registrations of a snapshot made by `pushRegistrations`, at `index`.
    public func restoreRegistrations(_ L: LuaState, from index: Int32) {
        let snapshot = lua_absindex(L.raw, index)
        guard L.type(at: snapshot) == LUA_TTABLE else { return }
        let base = L.top
        defer { L.setTop(base) }
        L.pushRef(globalHooksRef)
        L.rawField(snapshot, "hooks")
        guard L.type(at: -1) == LUA_TTABLE else { return }
        var counts: [Int] = []
        for i in 1...4 {
            L.rawItem(-1, i)
            counts.append(Int(lua_rawlen(L.raw, -1)))
            L.setRawItem(-3, i)
        }
        (startHookCount, tickHookCount, doneHookCount, cancelHookCount) = (counts[0], counts[1], counts[2], counts[3])
        L.setTop(base)
        // The formatters table is the prelude's own (an upvalue): it is emptied and refilled.
        L.pushRef(formattersRef)
        let formatters = L.top
        while true {
            L.pushNil()
            guard lua_next(L.raw, formatters) != 0 else { break }
            L.pop(1)
            L.pushNil()
            lua_rawset(L.raw, formatters)
        }
        L.rawField(snapshot, "formatters")
        guard L.type(at: -1) == LUA_TTABLE else { return }
        L.pushNil()
        while lua_next(L.raw, -2) != 0 {
            L.pushValue(at: -2)
            lua_rotate(L.raw, -2, 1)
            lua_rawset(L.raw, formatters)
        }
    }

    /// Copies the table at registry[ref] into the table on top of the stack.
    private func copyTable(_ L: LuaState, from ref: Int32) {
        let target = L.top
        L.pushRef(ref)
        let source = L.top
        L.pushNil()
        while lua_next(L.raw, source) != 0 {
            L.pushValue(at: -2)
            lua_rotate(L.raw, -2, 1)
            lua_rawset(L.raw, target)
        }
        L.pop(1)
    }
}
