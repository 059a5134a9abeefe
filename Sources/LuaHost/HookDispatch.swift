import CLua
import CLuaShim
import CountdownCore

/// Calls the Lua hooks when the scheduler reports events. Every call is a
/// protected call with a traceback handler; an error stops only its countdown.
extension LuaHost: SchedulerDelegate {
    public func countdownDidTick(_ tick: Tick) {
        let slot = Int(tick.key.slot)
        let refs = hooks[slot]
        guard refs.tick != LUA_NOREF else { return }
        let L = current
        let base = lua_gettop(L)
        // Read before the hook runs: the hook may end its own countdown, which forgets the id.
        let id = scheduler.id(tick.key)
        cd_push_ref(L, refs.tick)
        pushTickTable(L, tick, idRef: refs.id)
        if cd_pcall_traceback(L, 1, 0) != LUA_OK {
            let message = L.string(at: -1) ?? "(error object is not a string)"
            lua_settop(L, base)
            reportHookError(countdown: id, hook: "on_tick", message: message)
            scheduler.cancel(tick.key, reason: .stopped)
        }
    }

    public func countdownDidEnd(_ tick: Tick, reason: EndReason) {
        let slot = Int(tick.key.slot)
        let refs = hooks[slot]
        hooks[slot] = HookRefs()
        let L = current
        let base = lua_gettop(L)
        defer { lua_settop(L, base) }
        cd_push_ref(L, refs.handle)
        if let handle = cd_to_handle(L, -1),
           handle.pointee.slot == tick.key.slot, handle.pointee.generation == tick.key.generation {
            handle.pointee.final_state = (reason == .finished ? CountdownState.finished : .cancelled).rawValue
        }
        L.pop()
        let callsHook = refs.done != LUA_NOREF && (reason == .finished || reason == .cancelled)
        var id: String?
        if callsHook {
            cd_push_ref(L, refs.done)
            pushTickTable(L, tick, idRef: refs.id)
            L.push(reason == .finished ? "finished" : "cancelled")
            id = L.string(at: -2).flatMap { _ in nil }
            if refs.id != LUA_NOREF {
                cd_push_ref(L, refs.id)
                id = L.string(at: -1)
                L.pop()
            }
        }
        for ref in [refs.handle, refs.tick, refs.done, refs.id] where ref != LUA_NOREF {
            cd_unref(L, ref)
        }
        guard callsHook else { return }
        if cd_pcall_traceback(L, 2, 0) != LUA_OK {
            let message = L.string(at: -1) ?? "(error object is not a string)"
            reportHookError(countdown: id, hook: "on_done", message: message)
        }
    }

    /// Pushes the `t` table a hook receives.
    func pushTickTable(_ L: OpaquePointer, _ tick: Tick, idRef: Int32) {
        let b = tick.breakdown
        var fields = cd_tick_fields(
            remaining: Time.seconds(tick.remaining),
            elapsed: Time.seconds(tick.elapsed),
            progress: tick.progress,
            days: b.days, hours: b.hours, minutes: b.minutes, seconds: b.seconds, tenths: b.tenths,
            missed: tick.missed)
        if idRef != LUA_NOREF {
            cd_push_ref(L, idRef)
            cd_push_tick_table(L, -1, &fields)
            lua_rotate(L, -2, 1)
            L.pop()
        } else {
            cd_push_tick_table(L, 0, &fields)
        }
    }
}
