import CLua
import CLuaShim
import CountdownCore

/// Hooks for every countdown: `countdown.on("start" | "tick" | "done" | "cancel", fn)`
/// (registered in HostPrelude.swift). The dispatcher checks a count first, so an
/// event with no global hook costs one branch.
///
/// Each hook is called as `fn(t, h)`: the tick snapshot and the countdown's handle.
/// An error in a global hook is reported and the hook stays registered; the
/// countdown is not affected (the hook belongs to a plugin, not to the countdown).
extension PluginBinding {
    enum GlobalEvent: Int32 {
        case start = 1, tick, done, cancel
        var name: String {
            switch self {
            case .start: "start"
            case .tick: "tick"
            case .done: "done"
            case .cancel: "cancel"
            }
        }
    }

    static let hooksChanged: cd_host_function = { L, context in
        LuaHost.hostCall(L, context) { host, L throws(APIError) in
            let count = Int(lua_tointegerx(L.raw, 2, nil))
            switch lua_tointegerx(L.raw, 1, nil) {
            case 1: host.plugins.startHookCount = count
            case 2: host.plugins.tickHookCount = count
            case 3: host.plugins.doneHookCount = count
            case 4: host.plugins.cancelHookCount = count
            default: throw APIError("hooks_changed: no such event")
            }
            return 0
        }
    }

    /// Calls the global hooks of `event` for the countdown whose handle is registry[handleRef].
    func callGlobalHooks(_ event: GlobalEvent, handleRef: Int32, remaining: Nanoseconds, total: Nanoseconds, missed: Int64) {
        let L = host.current
        let base = L.top
        defer { L.setTop(base) }
        guard lua_checkstack(L.raw, 6) != 0 else { return }
        L.pushRef(globalHooksRef)
        L.rawItem(-1, Int(event.rawValue))
        let list = L.top
        let count = L.rawLength(at: list)
        guard count > 0 else { return }
        L.pushRef(handleRef)
        let handle = L.top
        lua_getiuservalue(L.raw, handle, CD_UV_ID)
        let id = L.top
        var snapshot = cd_tick(remaining_ns: remaining, total_ns: total, missed: missed)
        for i in 1...count {
            L.rawItem(list, i)
            cd_push_tick(L.raw, handle, &snapshot)
            L.pushValue(at: handle)
            let status = cd_pcall_hook(L.raw, 2, 0)
            if status != LUA_OK {
                let message = host.hookFailureMessage(L, status: status)
                L.pop()
                host.reportHookError(countdown: L.string(at: id), hook: "countdown.on(\"\(event.name)\") hook", message: message)
            }
        }
    }
}
