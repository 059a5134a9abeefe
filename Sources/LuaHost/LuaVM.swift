import CLua
import CLuaShim

/// One Lua 5.4 state. Confined to the thread that created it: the type is not
/// Sendable, and the run loop that owns the scheduler owns this too.
public final class LuaVM {
    /// The main thread's state.
    public let state: OpaquePointer

    /// The limits its allocator and count hook enforce.
    public let limits: ScriptLimits

    /// What calling hooks needs, made once (see `cd_call_hook`).
    let hookCaller: UnsafeMutablePointer<cd_hook_caller>

    public init(limits: ScriptLimits = .none) {
        self.limits = limits
        guard let state = cd_new_limited_state(limits.memoryLimit, limits.instructionBudget) else {
            fatalError("cdscript: Lua could not allocate its state")
        }
        self.state = state
        let status = cd_open_libs(state)
        precondition(status == LUA_OK, "cdscript: Lua could not open its standard libraries")
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
        cd_close_limited_state(state)
    }

    /// Bytes the state holds now.
    public var memoryInUse: Int { Int(cd_get_limits(state).pointee.used) }

    /// The stack index of the permanent traceback handler on the main thread.
    public static let tracebackHandlerIndex: Int32 = 1

    /// Values on the stack of the main thread above the permanent traceback
    /// handler; tests use it to check balance.
    public var top: Int32 { lua_gettop(state) - LuaVM.tracebackHandlerIndex }
}

/// Small stack helpers shared by the bindings and the test runner. None of them can
/// raise a Lua error except on a failed allocation, which the default allocator
/// never reports.
extension OpaquePointer {
    @inline(__always)
    public func push(_ string: String) {
        var copy = string
        copy.withUTF8 { buffer in
            _ = lua_pushlstring(self, buffer.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }, buffer.count)
        }
    }

    @inline(__always)
    public func pop(_ n: Int32 = 1) { cd_pop(self, n) }

    func type(at index: Int32) -> Int32 { lua_type(self, index) }

    func typeName(at index: Int32) -> String {
        String(cString: lua_typename(self, lua_type(self, index)))
    }

    /// The string at `index` without conversion; nil unless it is a string.
    public func string(at index: Int32) -> String? {
        guard lua_type(self, index) == LUA_TSTRING else { return nil }
        var length = 0
        guard let pointer = cd_to_string(self, index, &length) else { return nil }
        return pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
    }

    /// The number at `index`; nil unless it is a number (strings are not converted).
    public func number(at index: Int32) -> Double? {
        guard lua_type(self, index) == LUA_TNUMBER else { return nil }
        return lua_tonumberx(self, index, nil)
    }

    /// Pushes `t[key]` of the table at `index` without metamethods; returns its type.
    @discardableResult
    public func rawField(_ index: Int32, _ key: String) -> Int32 {
        let table = lua_absindex(self, index)
        push(key)
        return lua_rawget(self, table)
    }

    /// `t[key] = top` for the table at `index`, without metamethods; pops the value.
    func setRawField(_ index: Int32, _ key: String) {
        let table = lua_absindex(self, index)
        push(key)
        lua_rotate(self, -2, 1)
        lua_rawset(self, table)
    }

    /// True for functions and for values whose metatable has `__call`.
    func isCallable(at index: Int32) -> Bool {
        let t = lua_type(self, index)
        if t == LUA_TFUNCTION { return true }
        guard t == LUA_TTABLE || t == LUA_TUSERDATA else { return false }
        guard lua_getmetatable(self, index) != 0 else { return false }
        let callable = rawField(-1, "__call") == LUA_TFUNCTION
        pop(2)
        return callable
    }

    /// Pushes a Swift host function that receives `context`.
    func pushHostFunction(_ fn: cd_host_function, context: UnsafeMutableRawPointer) {
        cd_push_host_function(self, fn, context)
    }
}
