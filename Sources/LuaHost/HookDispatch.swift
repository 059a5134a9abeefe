import CLua
import CLuaShim
import CountdownCore

/// Calls the Lua hooks when the scheduler reports events. Every call is a
/// protected call with a traceback handler, made from C (`cd_call_hook`); an
/// error stops only its countdown.
extension LuaHost: SchedulerDelegate {
    public func countdownDidTick(_ tick: Tick) {
        let ref = handleRefs[Int(tick.key.slot)]
        // Global tick hooks (countdown.on) first; one branch when there are none.
        if tickHookCount != 0, !callGlobalTickHooks(ref: ref, tick) { return }
        var snapshot = cd_tick(remaining_ns: tick.remaining, total_ns: tick.total, missed: tick.missed)
        callHook(ref: ref, hook: 2, &snapshot, reason: nil) { [self] message, id in
            if handleHookError(handleRef: ref, id: id, hook: "on_tick", message: message) {
                scheduler.cancel(tick.key, reason: .stopped)
            }
        }
    }

    /// Calls the global tick hooks; false when the countdown ended meanwhile (its
    /// reference is then released here, as `callHook` does).
    private func callGlobalTickHooks(ref: Int32, _ tick: Tick) -> Bool {
        let outer = inFlight
        inFlight = (ref, false)
        callGlobalHooks(.tick, handleRef: ref, remaining: tick.remaining, total: tick.total, missed: tick.missed)
        let ended = inFlight?.ended ?? false
        inFlight = outer
        if ended { cd_unref(current, ref) }
        return !ended
    }

    public func countdownDidEnd(_ tick: Tick, reason: EndReason) {
        let slot = Int(tick.key.slot)
        let ref = handleRefs[slot]
        handleRefs[slot] = LUA_NOREF
        storeEnded(tick, reason: reason, handleRef: ref)
        let L = current
        cd_push_ref(L, ref)
        if let handle = cd_to_handle(L, -1),
           handle.pointee.slot == tick.key.slot, handle.pointee.generation == tick.key.generation {
            handle.pointee.final_state = (reason == .finished ? CountdownState.finished : .cancelled).rawValue
        }
        L.pop()
        if reason == .finished || reason == .cancelled {
            var snapshot = cd_tick(remaining_ns: tick.remaining, total_ns: tick.total, missed: tick.missed)
            callHook(ref: ref, hook: 3, &snapshot, reason: reason == .finished ? "finished" : "cancelled") { [self] message, id in
                _ = handleHookError(handleRef: ref, id: id, hook: "on_done", message: message)
            }
            if reason == .finished ? doneHookCount != 0 : cancelHookCount != 0 {
                callGlobalHooks(reason == .finished ? .done : .cancel, handleRef: ref, remaining: tick.remaining, total: tick.total, missed: tick.missed)
            }
        }
        // A restart from on_done (h:append) took a reference of its own; this one
        // goes now, unless the countdown ended inside its own on_tick, whose call
        // still needs it.
        if let flight = inFlight, flight.ref == ref {
            inFlight?.ended = true
        } else {
            cd_unref(L, ref)
        }
    }

    /// Calls hook `hook` (2 on_tick, 3 on_done) of the countdown whose handle is
    /// registry[ref]; on an error, passes the message and the countdown's id to `failed`.
    @inline(__always)
    private func callHook(ref: Int32, hook: Int32, _ snapshot: inout cd_tick, reason: String?, failed: (String, String?) -> Void) {
        let L = current
        // From the run loop the main stack holds only the permanent handler.
        let msgh = hostCallDepth == 0 ? LuaVM.tracebackHandlerIndex : 0
        let outer = inFlight
        inFlight = (ref, false)
        let status: Int32
        if let reason {
            status = reason.withCString { cd_call_hook(L, vm.hookCaller, msgh, ref, hook, &snapshot, $0) }
        } else {
            status = cd_call_hook(L, vm.hookCaller, msgh, ref, hook, &snapshot, nil)
        }
        let ended = inFlight?.ended ?? false
        inFlight = outer
        if status != LUA_OK {
            // LUA_ERRMEM skips the message handler: its message is explained here.
            let message = hookFailureMessage(L, status: status)
            L.pop()
            failed(message, handleID(ref: ref))
        }
        if ended { cd_unref(L, ref) }
    }

    /// The id kept in a handle's first user value.
    private func handleID(ref: Int32) -> String? {
        let L = current
        cd_push_ref(L, ref)
        lua_getiuservalue(L, -1, 1)
        let id = L.string(at: -1)
        L.pop(2)
        return id
    }
}
