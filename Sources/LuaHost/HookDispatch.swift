import CLua
import CLuaShim
import CountdownCore

/// Calls the Lua hooks when the scheduler reports events. Every call is a
/// protected call with a traceback handler, made from C (`cd_call_hook`); an
/// error stops only its countdown.
extension LuaHost: SchedulerDelegate {
    public func countdownDidTick(_ tick: Tick) {
        let ref = handleRefs[Int(tick.key.slot)]
        let L = current
        if tickHookCount != 0 {
            callGlobalHooks(.tick, handleRef: ref, remaining: tick.remaining, total: tick.total, missed: tick.missed)
        }
        var snapshot = cd_tick(remaining_ns: tick.remaining, total_ns: tick.total, missed: tick.missed)
        let status = cd_call_hook(L, ref, 2, &snapshot, nil)
        if status != LUA_OK {
            let message = hookFailureMessage(L, status: status)
            let id = L.string(at: -2)
            L.pop(2)
            if handleHookError(handleRef: ref, id: id, hook: "on_tick", message: message) {
                scheduler.cancel(tick.key, reason: .stopped)
            }
        }
    }

    public func countdownDidEnd(_ tick: Tick, reason: EndReason) {
        let slot = Int(tick.key.slot)
        let ref = handleRefs[slot]
        handleRefs[slot] = LUA_NOREF
        storeEnded(tick, reason: reason, handleRef: ref)
        let L = current
        // The reference is released only after on_done: a restart from on_done
        // (h:append) takes a reference of its own.
        defer { cd_unref(L, ref) }
        cd_push_ref(L, ref)
        if let handle = cd_to_handle(L, -1),
           handle.pointee.slot == tick.key.slot, handle.pointee.generation == tick.key.generation {
            handle.pointee.final_state = (reason == .finished ? CountdownState.finished : .cancelled).rawValue
        }
        L.pop()
        guard reason == .finished || reason == .cancelled else { return }
        var snapshot = cd_tick(remaining_ns: tick.remaining, total_ns: tick.total, missed: tick.missed)
        let status = cd_call_hook(L, ref, 3, &snapshot, reason == .finished ? "finished" : "cancelled")
        if status != LUA_OK {
            let message = hookFailureMessage(L, status: status)
            let id = L.string(at: -2)
            L.pop(2)
            _ = handleHookError(handleRef: ref, id: id, hook: "on_done", message: message)
        }
        if reason == .finished ? doneHookCount != 0 : cancelHookCount != 0 {
            callGlobalHooks(reason == .finished ? .done : .cancel, handleRef: ref, remaining: tick.remaining, total: tick.total, missed: tick.missed)
        }
    }
}
