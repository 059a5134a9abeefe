import CLua
import CLuaShim
import CountdownCore

/// Calls the Lua hooks when the scheduler reports events. Every call is a
/// protected call with a traceback handler, made from C (`cd_call_hook`); an
/// error stops only its countdown.
extension LuaHost: SchedulerDelegate {
    public func countdownDidTick(_ tick: Tick) {
        // Interrupted by a signal: the run is ending; no more hooks.
        if cd_interrupt_pending() != 0 { return }
        let hooks = SlotHooks(context: tick.context)
        let ref = hooks.handleRef
        // Global tick hooks (countdown.on) first; one branch when there are none.
        if tickHookCount != 0, !callGlobalTickHooks(ref: ref, tick) { return }
        if let failure = callHook(ref: ref, hook: 2, flags: hooks.flags, sharedHook: hooks.sharedTickHook, tick, reason: nil) {
            if handleHookError(handleRef: ref, id: failure.id, hook: "on_tick", message: failure.message) {
                scheduler.cancel(tick.key, reason: .stopped)
            }
            if failure.ended { cd_unref_handle(current, vm.hookCaller, ref) }
        }
    }

    /// Calls the global tick hooks; false when the countdown ended meanwhile (its
    /// reference is then released here, as `callHook` does).
    private func callGlobalTickHooks(ref: Int32, _ tick: Tick) -> Bool {
        let ((), ended) = inFlight(ref) {
            callGlobalHooks(.tick, handleRef: ref, remaining: tick.remaining, total: tick.total, missed: tick.missed)
        }
        if ended { cd_unref_handle(current, vm.hookCaller, ref) }
        return !ended
    }

    public func countdownDidEnd(_ tick: Tick, reason: EndReason) {
        let hooks = SlotHooks(context: tick.context)
        let ref = hooks.handleRef
        let L = current
        cd_release_tick_hook(L, vm.hookCaller, Int32(hooks.sharedTickHook))
        cd_push_ref(L, ref)
        // Its id is free from now on (countdown.get no longer finds it).
        if hooks.flags & UInt8(CD_HOOK_HAS_ID) != 0 { cd_unbind_id(L, vm.hookCaller, -1) }
        if let handle = cd_to_handle(L, -1),
           handle.pointee.slot == tick.key.slot, handle.pointee.generation == tick.key.generation {
            handle.pointee.final_state = (reason == .finished ? CountdownState.finished : .cancelled).rawValue
        }
        L.pop()
        storeEnded(tick, reason: reason, handleRef: ref, flags: hooks.flags)
        if reason == .finished || reason == .cancelled {
            if hooks.flags & UInt8(CD_HOOK_HAS_DONE) != 0,
               let failure = callHook(ref: ref, hook: 3, flags: hooks.flags, sharedHook: 0, tick, reason: reason == .finished ? "finished" : "cancelled") {
                _ = handleHookError(handleRef: ref, id: failure.id, hook: "on_done", message: failure.message)
                if failure.ended { cd_unref_handle(L, vm.hookCaller, ref) }
            }
            if reason == .finished ? doneHookCount != 0 : cancelHookCount != 0 {
                callGlobalHooks(reason == .finished ? .done : .cancel, handleRef: ref, remaining: tick.remaining, total: tick.total, missed: tick.missed)
            }
        }
        // A restart from on_done (h:append) took a reference of its own; this one
        // goes now, unless the countdown ended inside its own on_tick, whose call
        // still needs it.
        if inFlightRef == ref {
            inFlightEnded = true
        } else {
            cd_unref_handle(L, vm.hookCaller, ref)
        }
    }

    /// A hook that failed: its message and countdown's id, and whether the
    /// countdown ended during the call (its reference is then the caller's to release,
    /// after reporting).
    struct HookFailure {
        var message: String
        var id: String?
        var ended: Bool
    }

    /// Calls hook `hook` (2 on_tick, 3 on_done) of the countdown whose handle is
    /// registry[ref]; nil when it returned normally.
    @inline(__always)
    private func callHook(ref: Int32, hook: Int32, flags: UInt8, sharedHook: UInt8, _ tick: Tick, reason: String?) -> HookFailure? {
        let L = current
        // From the run loop the main stack holds only the permanent handler.
        let msgh = hostCallDepth == 0 ? LuaVM.tracebackHandlerIndex : 0
        let (status, ended) = inFlight(ref) {
            guard let reason else {
                return cd_call_hook(L, vm.hookCaller, msgh, ref, hook, Int32(flags), Int32(sharedHook), tick.remaining, tick.total, tick.missed, nil)
            }
            return reason.withCString {
                cd_call_hook(L, vm.hookCaller, msgh, ref, hook, Int32(flags), Int32(sharedHook), tick.remaining, tick.total, tick.missed, $0)
            }
        }
        if status != LUA_OK {
            // LUA_ERRMEM skips the message handler: its message is explained here.
            let message = hookFailureMessage(L, status: status)
            L.pop()
            return HookFailure(message: message, id: handleID(ref: ref), ended: ended)
        }
        if ended { cd_unref_handle(L, vm.hookCaller, ref) }
        return nil
    }

    /// Runs `call` with the countdown whose handle is registry[ref] as the hook call
    /// in flight; returns its result and whether the countdown ended meanwhile.
    @inline(__always)
    private func inFlight<T>(_ ref: Int32, _ call: () -> T) -> (T, ended: Bool) {
        let (outerRef, outerEnded) = (inFlightRef, inFlightEnded)
        (inFlightRef, inFlightEnded) = (ref, false)
        let result = call()
        let ended = inFlightEnded
        (inFlightRef, inFlightEnded) = (outerRef, outerEnded)
        return (result, ended)
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
