import CLua
import CLuaShim
import CountdownCore
import Foundation
import TerminalView

/// Binds the scheduler to Lua scripts: installs the `countdown` library, keeps
/// each countdown's hooks, and calls them when the scheduler reports events.
///
/// The host owns countdowns by id, not by handle: a script that drops its handle
/// never cancels a countdown.
public final class LuaHost {
    public let vm: LuaVM
    public let scheduler: Scheduler
    /// The zone that local clock times ("20:00") are read in. Found on first use:
    /// `TimeZone.current` costs 1.4M instructions, and most scripts never ask.
    public lazy var timeZone: TimeZone = .current
    /// Where hook errors are reported (the command line prints them to stderr).
    public var reportError: (String) -> Void = { message in
        StandardError.line(message)
    }
    /// Hook errors so far; the run ends non-zero when there were any.
    public internal(set) var hookErrorCount = 0
    /// The errno of the first command a plugin could not start (`exec`'s program
    /// missing, say), or nil: the run then ends with the shell's code for it.
    public internal(set) var spawnFailure: Int32?
    /// Where `persist = true` countdowns are kept (see PersistenceLibrary.swift);
    /// nil: persistence is unavailable in this host.
    public var persistence: CountdownPersistence?
    /// The current boot's id, stored with boot-clock deadlines.
    public var bootID: String?
    /// Distinct store failures so far; the run ends non-zero when there were any.
    public internal(set) var storeErrorCount = 0
    /// The ids of the persistent countdowns running, by slot (the scheduler is given none).
    var persistentIDs = PersistentIDs()
    var lastStoreError: String?
    var reportedStoreErrors: Set<String> = []
    /// How far a stored countdown may differ from this process's copy and still be
    /// taken as the same (StoreFollowing.swift): clocks read a moment apart, or a
    /// Redis server clock's offset measured again, are not a change.
    public var externalChangeTolerance: Nanoseconds = 2_000_000

    /// What the host keeps per countdown, packed into the scheduler's context
    /// (`CountdownSpec.context`): every tick brings it along, from the record the
    /// scheduler reads anyway.
    struct SlotHooks {
        /// A registry reference to the countdown's handle, whose user values hold its
        /// id and hooks.
        var handleRef: Int32
        /// Its `cd_hook_flags`.
        var flags: UInt8
        /// Its on_tick's `cd_share_tick_hook` number (0: none), given back at its end.
        var sharedTickHook: UInt8

        init(handleRef: Int32, flags: UInt8, sharedTickHook: UInt8) {
            self.handleRef = handleRef
            self.flags = flags
            self.sharedTickHook = sharedTickHook
        }

        @inline(__always)
        init(context: UInt64) {
            handleRef = Int32(truncatingIfNeeded: context)
            flags = UInt8(truncatingIfNeeded: context >> 32)
            sharedTickHook = UInt8(truncatingIfNeeded: context >> 40)
        }

        var context: UInt64 {
            UInt64(UInt32(bitPattern: handleRef)) | UInt64(flags) << 32 | UInt64(sharedTickHook) << 40
        }
    }
    /// The state of the innermost host call: hooks fired from inside a host
    /// function (a start's first tick, a cancel's on_done) run on the caller's thread.
    var current: OpaquePointer
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
    var methodsRef: Int32 = LUA_NOREF
    var countdownTableRef: Int32 = LUA_NOREF
    var patterns: [String: FormatPattern] = [:]
    /// The `view` library's state, once `installView` ran (ViewLibrary.swift).
    var view: ViewBinding?

    // Plugins and global hooks (issue 6; see HostPrelude.swift, GlobalHooks.swift).
    /// Folders searched by `use`/`require` for plugins, in order (see `PluginPath`).
    public var pluginPath: [PluginDirectory] = [] {
        didSet { updateSearchFolders() }
    }
    /// The folder of the script being run; under `--sandbox`, scripts read files
    /// only in it and the plugin folders, and write (the `log` plugin) only in it.
    public internal(set) var scriptDirectory: String? {
        didSet { updateSearchFolders() }
    }
    /// Global hooks registered per event; dispatch costs one branch while they are 0.
    var startHookCount = 0, tickHookCount = 0, doneHookCount = 0, cancelHookCount = 0
    var globalHooksRef: Int32 = LUA_NOREF
    var formattersRef: Int32 = LUA_NOREF
    /// Set by `cdscript test`: plugins' side effects are recorded here instead of done (PluginRecorder.swift).
    public var pluginRecorder: PluginRecorder?
    /// Where `print` writes when `capturePrint` replaced it (PrintCapture.swift).
    var printSink: ((String) -> Void)?
    /// Lines for the user from plugins (e.g. why no notification was shown); stderr by default.
    public var reportNotice: (String) -> Void = { message in
        StandardError.line(message)
    }

    public init(scheduler: Scheduler, limits: ScriptLimits = .none) {
        self.vm = LuaVM(limits: limits)
        self.scheduler = scheduler
        self.current = vm.state
        scheduler.delegate = self
        installCountdownLibrary()
        installHostPrelude()
    }

    deinit {
        scheduler.delegate = nil
    }

    /// Bytes the host holds per countdown outside Lua (capacity), for benchmarks:
    /// none since its per-countdown words moved into the scheduler's records.
    public var storageBytes: Int { 0 }

    var context: UnsafeMutableRawPointer {
        Unmanaged.passUnretained(self).toOpaque()
    }

    /// The body of every host function: finds the host, tracks the calling Lua
    /// thread, and turns a thrown `APIError` into `CD_RAISE` with the message pushed.
    /// The C trampoline raises it after this Swift frame has returned.
    @inline(__always)
    static func hostCall(_ L: OpaquePointer?, _ context: UnsafeMutableRawPointer?, _ body: (LuaHost, OpaquePointer) throws(APIError) -> Int32) -> Int32 {
        // The context is the host itself, alive whenever its functions can run (once
        // it goes, the trampoline refuses them: `run_over`), so a guaranteed
        // reference serves: no retain and release per call.
        Unmanaged<LuaHost>.fromOpaque(context!)._withUnsafeGuaranteedRef { host in
            hostCall(host, L!, body)
        }
    }

    @inline(__always)
    private static func hostCall(_ host: LuaHost, _ L: OpaquePointer, _ body: (LuaHost, OpaquePointer) throws(APIError) -> Int32) -> Int32 {
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

    /// Pushes the global table.
    func pushGlobals(_ L: OpaquePointer) {
        lua_rawgeti(L, cd_registry_index(), lua_Integer(LUA_RIDX_GLOBALS))
    }

    /// Sets a global without metamethods; pops the value.
    public func setGlobal(_ name: String) {
        let L = vm.state
        pushGlobals(L)
        lua_rotate(L, -2, 1)
        L.setRawField(-2, name)
        L.pop()
    }

    /// Registers functions into the table on top of the stack.
    func register(_ functions: [(String, cd_host_function)], into L: OpaquePointer) {
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
        showErrorInView("error in \(hook) of \(name)", message: message)
    }
}

extension LuaHost {
    /// Tells require's searcher and the sandbox (cd_stdlib_set_folders, Sources/CLuaShim/stdlib_install.c) the current folders.
    func updateSearchFolders() {
        // NULL-terminated, so that the buffer is never empty.
        var pointers: [UnsafeMutablePointer<CChar>?] = pluginPath.map { strdup($0.path) } + [nil]
        let script = scriptDirectory.map { strdup($0) } ?? nil
        defer {
            for p in pointers { free(p) }
            free(script)
        }
        let status = pointers.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) {
                cd_stdlib_set_folders(vm.state, script, $0, Int32(buffer.count - 1))
            }
        }
        precondition(status == LUA_OK, "cdscript: the plugin folders could not be recorded")
    }

    /// For a signal handler (async-signal-safe): makes the Lua code running now
    /// raise "interrupted" at its next instruction, in whichever coroutine it runs.
    public static let interruptFromSignal: @convention(c) (Int32) -> Void = cd_interrupt

    /// The terminating signal that interrupted Lua code, or 0.
    public static var interruptingSignal: Int32 { cd_interrupt_signal() }

    /// Sets the CPU-time limit per callback to `seconds` (> 0) and returns the
    /// period of the CPU-time timer that must call `cpuLimitCheck` from its signal
    /// handler: every second of CPU, or every `seconds` when that is shorter. A
    /// callback is stopped at the first fire that finds it running for `seconds`
    /// or more (whole periods, rounded up), so after at most one period more of CPU.
    public static func configureCPULimit(seconds: Double) -> Int64 {
        let period = min(seconds, 1)
        let periods = Int32(min((seconds / period).rounded(.up), Double(Int32.max)))
        cd_cpu_limit_configure(periods, seconds)
        return Int64(period * 1e9)
    }

    /// For the CPU-time timer's signal handler (async-signal-safe): stops the
    /// callback that ran past the limit; nonzero when it could not be stopped at
    /// the last fire and the process must end.
    public static let cpuLimitCheck: @convention(c) () -> Int32 = cd_cpu_limit_check

    /// Ends the run's Lua side: closes the state, which runs the script's
    /// finalizers (under the memory cap; a cdscript function called from one
    /// raises "the run is over", so a persistent countdown cannot be started
    /// then). Finalizers run with Lua's hooks off, so neither the budget nor a
    /// signal's hook can stop one: bound the time with a watchdog around this call.
    public func closeState() {
        vm.close()
    }

    /// Makes stdout line-buffered, so that `print` output reaches a pipe line by line.
    public static func lineBufferStandardOutput() {
        cd_line_buffer_stdout()
    }
}
