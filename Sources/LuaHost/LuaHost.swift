import CLua
import CLuaShim
import CountdownCore
import CTerminal
import FoundationEssentials
import TerminalView
#if canImport(Glibc)
import Glibc
#endif

/// Binds the scheduler to Lua scripts. The host is a composition: it owns the
/// Lua state (`vm`) and the scheduler, is the scheduler's delegate (it calls each
/// countdown's hooks, Hooks/), and hands the state to its parts, each of which
/// owns what it needs and installs its Lua library:
///
/// - `countdowns` (Countdowns/): the `countdown` library, handles and their
///   methods, start options, launching into the scheduler;
/// - `plugins` (Plugins/): plugin folders, `use`/`require`, `countdown.on` and
///   formatters, and the host functions built-in plugins call;
/// - `store` (Persistence/): persistent countdowns, kept in step with the store
///   both ways;
/// - `view` (View/): the `view` library, once `installView` made it.
///
/// Limits and interruption live in Limits/ (mostly C, where signal handlers can
/// reach them). The host owns countdowns by id, not by handle: a script that
/// drops its handle never cancels a countdown.
public final class LuaHost {
    /// The Lua state every part binds into.
    public let vm: LuaVM
    public let scheduler: Scheduler
    /// The thread that made the host and its Lua state, the only one that may
    /// enter them (checked in debug builds: scripts, host functions, hooks, close).
    public let owner = OwnerThread()
    /// Countdowns: the `countdown` library, handles and their methods, launching.
    public let countdowns: CountdownBinding
    /// Plugins and global hooks: plugin folders, `countdown.on`, formatters, plugins' side effects.
    public let plugins: PluginBinding
    /// Persistent countdowns: the store, the ids running here, store failures.
    public let store: StoreBinding
    /// The view, once `installView` made it (View/).
    public internal(set) var view: ViewBinding?
    /// Under `cdscript test`, every scheduler of the simulated machine (this host's
    /// and those of the other processes a test started): what `clock.*` moves.
    public var clockGroup: SchedulerGroup?

    /// The zone that local clock times ("20:00") are read in: the machine's, as
    /// the C library reads it (`TZ`, `/etc/localtime`); tests set their own.
    public var timeZone: any LocalZone = SystemLocalZone()
    /// Where hook errors are reported (the command line prints them to stderr).
    public var reportError: (String) -> Void = { message in
        StandardError.line(message)
    }
    /// Hook errors so far; the run ends non-zero when there were any.
    public internal(set) var hookErrorCount = 0

    /// The state of the innermost host call: hooks fired from inside a host
    /// function (a start's first tick, a cancel's on_done) run on the caller's thread.
    var current: LuaState
    /// Host functions running now. At 0 the call comes from the run loop, with
    /// nothing on the main stack but the permanent traceback handler.
    var hostCallDepth = 0
    /// The handle reference of the hook call in flight (LUA_NOREF: none), so that a
    /// countdown ending inside its own hook keeps its handle (and id) until the call
    /// returns; `inFlightEnded` records that it ended. Kept in C, where
    /// `cd_run_tick_batch` sets them for each hook it runs.
    var inFlightRef: Int32 {
        get { vm.hookCaller.pointee.in_flight_ref }
        set { vm.hookCaller.pointee.in_flight_ref = newValue }
    }
    var inFlightEnded: Bool {
        get { vm.hookCaller.pointee.in_flight_ended != 0 }
        set { vm.hookCaller.pointee.in_flight_ended = newValue ? 1 : 0 }
    }

    public init(scheduler: Scheduler, limits: ScriptLimits = .none) {
        let vm = LuaVM(limits: limits)
        self.vm = vm
        self.scheduler = scheduler
        self.current = vm.state
        plugins = PluginBinding(vm: vm)
        store = StoreBinding(vm: vm, scheduler: scheduler)
        countdowns = CountdownBinding(vm: vm, scheduler: scheduler, plugins: plugins, store: store)
        countdowns.host = self
        plugins.host = self
        store.host = self
        scheduler.delegate = self
        countdowns.install()
        plugins.install()
    }

    deinit {
        scheduler.delegate = nil
    }

    var context: UnsafeMutableRawPointer {
        Unmanaged.passUnretained(self).toOpaque()
    }

    /// The body of every host function: finds the host, tracks the calling Lua
    /// thread, and turns a thrown `APIError` into `CD_RAISE` with the message pushed.
    /// The C trampoline raises it after this Swift frame has returned.
    @inline(__always)
    static func hostCall(_ L: OpaquePointer?, _ context: UnsafeMutableRawPointer?, _ body: (LuaHost, LuaState) throws(APIError) -> Int32) -> Int32 {
        // The context is the host itself, alive whenever its functions can run (once
        // it goes, the trampoline refuses them: `run_over`), so a guaranteed
        // reference serves: no retain and release per call. `takeUnretainedValue()`
        // cost every host function both, about 45 instructions (a fetch 5,661
        // against 5,616; scripts/bench-instructions, docs/performance.md,
        // "Back-pointers").
        Unmanaged<LuaHost>.fromOpaque(context!)._withUnsafeGuaranteedRef { host in
            hostCall(host, LuaState(L!), body)
        }
    }

    @inline(__always)
    private static func hostCall(_ host: LuaHost, _ L: LuaState, _ body: (LuaHost, LuaState) throws(APIError) -> Int32) -> Int32 {
        host.owner.assertCurrent("the Lua state")
        let outer = host.current
        host.current = L
        host.hostCallDepth += 1
        defer {
            host.current = outer
            host.hostCallDepth -= 1
        }
        do {
            return try body(host, L)
        } catch {
            L.push(error.message)
            return CD_RAISE
        }
    }

    /// Sets a global without metamethods; pops the value.
    public func setGlobal(_ name: String) {
        let L = vm.state
        L.pushGlobals()
        L.insert(at: -2)
        L.setRawField(-2, name)
        L.pop()
    }

    /// Registers functions into the table on top of the stack.
    func register(_ functions: [(String, cd_host_function)], into L: LuaState) {
        for (name, fn) in functions {
            L.pushHostFunction(fn, context: context)
            L.setRawField(-2, name)
        }
    }

    func reportHookError(countdown id: String?, hook: String, message: String) {
        // After Ctrl-C, SIGTERM or SIGHUP every running callback raises
        // "interrupted": the run is ending, that is no error of the script.
        if cd_interrupt_signal() != 0 { return }
        hookErrorCount += 1
        let name = id.map { "countdown \"\(VisibleText.escaped($0))\"" } ?? "an anonymous countdown"
        // The message is the script's (or a plugin's) text, on its way to a terminal.
        reportError("cdscript: error in \(hook) of \(name): \(VisibleText.escapedKeepingLayout(message))")
        view?.showError("error in \(hook) of \(name)", message: message)
    }
}

extension LuaHost {
    /// Ends the run's Lua side: closes the state, which runs the script's
    /// finalizers (under the memory cap; a cdscript function called from one
    /// raises "the run is over", so a persistent countdown cannot be started
    /// then). Finalizers run with Lua's hooks off, so neither the budget nor a
    /// signal's hook can stop one: bound the time with a watchdog around this call.
    public func closeState() {
        owner.assertCurrent("the Lua state")
        // A store that asked this host for the countdowns it runs asks no more (HeldRecords.swift).
        store.copyKeeper?.holderGoes(store)
        vm.close()
    }

    /// Makes stdout line-buffered, so that `print` output reaches a pipe line by line.
    public static func lineBufferStandardOutput() {
        cd_line_buffer_stdout()
    }

    /// Lua's `print`, in every state, writes through `StandardOutput` (CTerminal's
    /// checked writer) instead of stdio: a line that cannot be written is seen
    /// there, with its errno, and `StandardOutput.onFailure` decides what follows.
    public static func printThroughStandardOutput() {
        cd_set_output_writer(cdt_output_write)
    }
}
