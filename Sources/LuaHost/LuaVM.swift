import CLua
import CLuaShim

/// One Lua 5.4 state. Confined to the thread that created it: the type is not
/// Sendable, and the run loop that owns the scheduler owns this too.
public final class LuaVM {
    /// The main thread's state.
    public let state: LuaState

    /// The limits its allocator and count hook enforce.
    public let limits: ScriptLimits

    /// What calling hooks needs, made once (see `cd_call_hook`).
    let hookCaller: UnsafeMutablePointer<cd_hook_caller>

    public init(limits: ScriptLimits = .none) {
        self.limits = limits
        guard let raw = cd_new_limited_state(limits.memoryLimit, limits.instructionBudget) else {
            fatalError("cdscript: Lua could not allocate its state")
        }
        self.state = LuaState(raw)
        let state = raw
        let status = cd_open_libs(state)
        SetUpStep.check(status == LUA_OK, "cdscript: Lua could not open its standard libraries")
        // coroutine.resume/wrap that track the running thread (signals interrupt it,
        // the budget counts across coroutines) and debug.sethook/gethook that keep a
        // script's hook beside the host's (see interrupt.c, hooks.c).
        precondition(cd_install_tracked_coroutines(state) == LUA_OK && cd_install_script_hooks(state) == LUA_OK,
                     "cdscript: Lua could not set up its libraries")
        // A signal interrupts the Lua code of this VM, unless an older one is still open.
        cd_interrupt_attach(state)
        // Every tick hands a hook a fresh `t` that is garbage a moment later, while
        // countdowns' handles live long: the generational collector is built for that
        // (measured: per-tick cost at 1M countdowns, see BENCHMARKS.md).
        _ = cd_gc_generational(state)
        // Slot 1 of the main thread's stack holds a traceback handler for the VM's
        // whole life: hooks called from the run loop use it in place instead of
        // pushing and popping one per tick.
        cd_push_traceback_handler(state)
        guard let hookCaller = cd_hook_caller_new(state) else {
            fatalError("cdscript: Lua could not allocate its state")
        }
        self.hookCaller = hookCaller
    }

    /// Signals interrupt this VM's Lua code from now on, in place of the VM made
    /// first (`run --watch`: the reloaded version takes its run's signals over).
    public func takeSignals() {
        cd_interrupt_take(state.raw)
    }

    deinit {
        close()
        cd_hook_caller_free(hookCaller)
    }

    /// Whether `close` ran: the state is gone.
    public private(set) var isClosed = false

    /// Closes the state: runs the script's finalizers (under the memory cap; any
    /// cdscript function they call raises "the run is over"). Idempotent; nothing
    /// may use the state afterwards.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        cd_close_limited_state(state.raw)
    }

    /// Counts `bytes` kept for the script outside Lua (the Redis store's queued
    /// changes, say) against `--memory-limit`, as the view's text is; negative
    /// gives bytes back. False when they would pass the limit (nothing counted).
    public func chargeMemory(_ bytes: Int) -> Bool {
        guard !isClosed else { return true }
        return cd_limits_charge(state.raw, Int64(bytes)) != 0
    }

    /// Bytes the state holds now.
    public var memoryInUse: Int { Int(cd_get_limits(state.raw).pointee.used) }

    /// Bytes of the id table (ids.c), which finds a running countdown by its id:
    /// C memory beside the state's, not in `memoryInUse`.
    public var idTableBytes: Int { cd_id_map_bytes(&hookCaller.pointee.ids) }

    /// The stack index of the permanent traceback handler on the main thread.
    public static let tracebackHandlerIndex: Int32 = 1

    /// Values on the stack of the main thread above the permanent traceback
    /// handler; tests use it to check balance.
    public var top: Int32 { state.top - LuaVM.tracebackHandlerIndex }
}
