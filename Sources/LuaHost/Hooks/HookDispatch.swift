import CLua
import CLuaShim
import CountdownCore

/// Calls the Lua hooks when the scheduler reports events. Every hook runs inside
/// a protected call with a traceback handler, made from C: one per hook
/// (`cd_call_hook`), or one per row of plain ticks of shared on_tick functions
/// (`cd_run_tick_batch`). An error stops only its countdown.
extension LuaHost: BatchingSchedulerDelegate {
    public func countdownDidTick(_ tick: Tick) {
        owner.assertCurrent("the Lua state")
        // Interrupted by a signal: the run is ending; no more hooks.
        if cd_interrupt_pending() != 0 { return }
        let hooks = SlotHooks(context: tick.context)
        let ref = hooks.handleRef
        // Global tick hooks (countdown.on) first; one branch when there are none.
        if plugins.tickHookCount != 0, !callGlobalTickHooks(ref: ref, tick) { return }
        if let failure = callHook(ref: ref, hook: CD_HOOK_ON_TICK, flags: hooks.flags, sharedHook: hooks.sharedTickHook, tick, reason: nil) {
            tickHookFailed(tick, failure)
        }
    }

    /// Plain ticks of shared on_tick functions run in rows, each row inside one
    /// protected call (`cd_run_tick_batch`); any other tick goes through
    /// `countdownDidTick`, in the same order.
    public func countdownsAreDue(_ scheduler: Scheduler) {
        owner.assertCurrent("the Lua state")
        // With global tick hooks every tick takes the long way (runDue delivers it).
        guard plugins.tickHookCount == 0 else { return }
        let caller = vm.hookCaller
        while let tick = scheduler.takePlainTick() {
            if cd_interrupt_pending() != 0 { return }
            let hooks = SlotHooks(context: tick.context)
            // Not a shared function, or the shared tick is held (this pass runs
            // inside a hook): this tick alone, as runDue would deliver it.
            guard hooks.sharedTickHook != 0, caller.pointee.shared_tick_busy == 0 else {
                countdownDidTick(tick)
                continue
            }
            var batch = cd_tick_batch()
            batch.take = { context, out in
                // No reference counting per tick: the scheduler outlives the batch.
                // A guaranteed reference, not `takeUnretainedValue()`, which
                // retained and released the scheduler per tick: 30.1 -> 38.0 ns a
                // tick (docs/performance.md, "Back-pointers").
                Unmanaged<Scheduler>.fromOpaque(context!)._withUnsafeGuaranteedRef { scheduler in
                    guard let tick = scheduler.takePlainTick() else { return 0 }
                    out!.pointee = LuaHost.batchTick(tick)
                    return 1
                }
            }
            batch.context = Unmanaged.passUnretained(scheduler).toOpaque()
            batch.tick = Self.batchTick(tick)
            let L = current
            let status = cd_run_tick_batch(L.raw, caller, &batch)
            let last = Self.tick(batch.tick)
            if status != LUA_OK {
                let message = hookFailureMessage(L, status: status)
                L.pop()
                let ref = batch.tick.handle_ref
                tickHookFailed(last, HookFailure(message: message, id: handleID(ref: ref), ended: batch.ended != 0))
            } else if batch.pending != 0 {
                countdownDidTick(last)
            } else {
                // Nothing more to take, or a signal is pending.
                return
            }
        }
    }

    @inline(__always)
    private static func batchTick(_ tick: Tick) -> cd_batch_tick {
        let hooks = SlotHooks(context: tick.context)
        return cd_batch_tick(handle_ref: hooks.handleRef, shared_hook: Int32(hooks.sharedTickHook),
                             remaining_ns: tick.remaining, total_ns: tick.total, slot: tick.key.slot,
                             generation: tick.key.generation, instant_ns: tick.instant, context: tick.context)
    }

    /// The tick a `cd_batch_tick` came from (plain: nothing missed).
    private static func tick(_ t: cd_batch_tick) -> Tick {
        Tick(key: CountdownKey(slot: t.slot, generation: t.generation), instant: t.instant_ns, remaining: t.remaining_ns,
             total: t.total_ns, missed: 0, context: t.context)
    }

    /// An on_tick that raised: reported, and its countdown stopped as its on_error says.
    private func tickHookFailed(_ tick: Tick, _ failure: HookFailure) {
        let ref = SlotHooks(context: tick.context).handleRef
        if handleHookError(handleRef: ref, id: failure.id, hook: "on_tick", message: failure.message) {
            scheduler.cancel(tick.key, reason: .stopped)
        }
        if failure.ended { cd_unref_handle(current.raw, vm.hookCaller, ref) }
    }

    /// Calls the global tick hooks; false when the countdown ended meanwhile (its
    /// reference is then released here, as `callHook` does).
    private func callGlobalTickHooks(ref: Int32, _ tick: Tick) -> Bool {
        let ((), ended) = inFlight(ref) {
            plugins.callGlobalHooks(.tick, handleRef: ref, remaining: tick.remaining, total: tick.total, missed: tick.missed)
        }
        if ended { cd_unref_handle(current.raw, vm.hookCaller, ref) }
        return !ended
    }

    public func countdownDidEnd(_ tick: Tick, reason: EndReason) {
        let hooks = SlotHooks(context: tick.context)
        let ref = hooks.handleRef
        let L = current
        cd_release_tick_hook(L.raw, vm.hookCaller, Int32(hooks.sharedTickHook))
        // Its id is free from now on (countdown.get no longer finds it). A replaced
        // one's id is bound to its successor already, and launch, which has its
        // handle, marks it ended.
        if reason != .replaced,
           let handle = cd_ended_handle(L.raw, vm.hookCaller, ref, Int32(hooks.flags & UInt8(CD_HOOK_HAS_ID))),
           handle.pointee.slot == tick.key.slot, handle.pointee.generation == tick.key.generation {
            handle.pointee.final_state = (reason == .finished ? CountdownState.finished : .cancelled).rawValue
        }
        // Cleared before any hook runs: a countdown started there may take the slot.
        var settlement: EndSettlement?
        if hooks.flags & UInt8(CD_HOOK_PERSISTENT) != 0, store.persistentIDs.remove(slot: tick.key.slot) {
            settlement = store.persistentEnded(tick, handleRef: ref, reason: reason)
        }
        // After this process's on_done: the end action, once across processes (EndActions.swift).
        defer { if let settlement { store.settle(settlement) } }
        if reason == .finished || reason == .cancelled {
            if hooks.flags & UInt8(CD_HOOK_HAS_DONE) != 0,
               let failure = callHook(ref: ref, hook: CD_HOOK_ON_DONE, flags: hooks.flags, sharedHook: 0, tick, reason: reason == .finished ? "finished" : "cancelled") {
                _ = handleHookError(handleRef: ref, id: failure.id, hook: "on_done", message: failure.message)
                if failure.ended { cd_unref_handle(L.raw, vm.hookCaller, ref) }
            }
            if reason == .finished ? plugins.doneHookCount != 0 : plugins.cancelHookCount != 0 {
                plugins.callGlobalHooks(reason == .finished ? .done : .cancel, handleRef: ref, remaining: tick.remaining, total: tick.total, missed: tick.missed)
            }
        }
        // A restart from on_done (h:append) took a reference of its own; this one
        // goes now, unless the countdown ended inside its own on_tick, whose call
        // still needs it.
        if inFlightRef == ref {
            inFlightEnded = true
        } else {
            cd_unref_handle(L.raw, vm.hookCaller, ref)
        }
    }

    /// An overtime countdown reached its deadline: on_done(t, "finished") and the
    /// global done hooks run as for an end, but the countdown, its handle and its
    /// id stay: its ticks go on (`t.overtime`).
    public func countdownDidPassEnd(_ tick: Tick) {
        if cd_interrupt_pending() != 0 { return }
        let hooks = SlotHooks(context: tick.context)
        let ref = hooks.handleRef
        if hooks.flags & UInt8(CD_HOOK_HAS_DONE) != 0,
           let failure = callHook(ref: ref, hook: CD_HOOK_ON_DONE, flags: hooks.flags, sharedHook: 0, tick, reason: "finished") {
            if handleHookError(handleRef: ref, id: failure.id, hook: "on_done", message: failure.message), !failure.ended {
                scheduler.cancel(tick.key, reason: .stopped)
            }
            if failure.ended { cd_unref_handle(current.raw, vm.hookCaller, ref) }
            return
        }
        if plugins.doneHookCount != 0 {
            plugins.callGlobalHooks(.done, handleRef: ref, remaining: 0, total: tick.total, missed: tick.missed)
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

    /// Calls hook `hook` (on_tick or on_done) of the countdown whose handle is
    /// registry[ref]; nil when it returned normally.
    @inline(__always)
    private func callHook(ref: Int32, hook: cd_hook_slot, flags: UInt8, sharedHook: UInt8, _ tick: Tick, reason: String?) -> HookFailure? {
        let L = current
        // From the run loop the main stack holds only the permanent handler.
        let msgh = hostCallDepth == 0 ? LuaVM.tracebackHandlerIndex : 0
        var call = cd_hook_call(handle_ref: ref, hook: hook, flags: Int32(flags), shared_hook: Int32(sharedHook),
                                tick: cd_tick(remaining_ns: tick.remaining, total_ns: tick.total, missed: tick.missed), reason: nil)
        let (status, ended) = inFlight(ref) {
            guard let reason else { return cd_call_hook(L.raw, vm.hookCaller, msgh, &call) }
            return reason.withCString {
                call.reason = $0
                return cd_call_hook(L.raw, vm.hookCaller, msgh, &call)
            }
        }
        if status != LUA_OK {
            // LUA_ERRMEM skips the message handler: its message is explained here.
            let message = hookFailureMessage(L, status: status)
            L.pop()
            return HookFailure(message: message, id: handleID(ref: ref), ended: ended)
        }
        if ended { cd_unref_handle(L.raw, vm.hookCaller, ref) }
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

    /// The id kept in a handle's user value `CD_UV_ID`.
    private func handleID(ref: Int32) -> String? {
        let L = current
        L.pushRef(ref)
        lua_getiuservalue(L.raw, -1, CD_UV_ID)
        let id = L.string(at: -1)
        L.pop(2)
        return id
    }
}
