import CLua
import CountdownCore

/// The host's part for countdowns: the `countdown` library, the handles scripts
/// hold (their methods, `h:append`, `h:pause`, ...) and how each countdown is
/// launched into the scheduler with its hooks.
///
/// Owned by its `LuaHost`, which it points back to without a reference count: a
/// start is on the hot path, and the part never outlives the host.
public final class CountdownBinding {
    /// The host this part belongs to, set once by the host as it is made (a
    /// part is made before its host is whole, so that the host can hold it in a
    /// `let`, read without a reference count on the hot path).
    /// `unowned(unsafe)`: a checked reference costs a start measurably (see
    /// docs/performance.md, "Back-pointers"); debug builds check it instead
    /// (`assertHostLives`).
    unowned(unsafe) var host: LuaHost! {
        didSet {
            delegate = Unmanaged.passUnretained(host)
            #if DEBUG
            checkedHost = host
            #endif
        }
    }
    #if DEBUG
    /// Debug builds: the host again, weakly, so that a use after it went is caught.
    private weak var checkedHost: LuaHost?
    #endif

    /// Whether the host is still there (debug builds; release builds do not know,
    /// and answer true).
    var hostLives: Bool {
        #if DEBUG
        return checkedHost != nil
        #else
        return true
        #endif
    }

    /// Debug builds only: stops the process when the part is used after its host went.
    @inline(__always)
    func assertHostLives() {
        assert(hostLives, "a countdown part used after its LuaHost was released")
    }
    /// The host again, for handing it to the scheduler as its delegate without a
    /// retain and release per start (`Scheduler.announce(_:to:)`).
    private(set) var delegate: Unmanaged<LuaHost>?
    /// The Lua state and the scheduler, the host's, kept here for the same reason.
    let vm: LuaVM
    let scheduler: Scheduler
    /// The parts a launch tells: global hooks, and the store for persistent countdowns.
    let plugins: PluginBinding
    let store: StoreBinding
    /// Registry references to the handles' method table and the `countdown` table.
    var methodsRef: Int32 = LUA_NOREF
    var tableRef: Int32 = LUA_NOREF
    /// Patterns `countdown.format` parsed, by their text (at most 257 kept).
    var patterns: [String: FormatPattern] = [:]
    /// While a reloaded script's main chunk runs: the countdowns it takes over (Reload/).
    var carryOver: CountdownCarryOver?

    init(vm: LuaVM, scheduler: Scheduler, plugins: PluginBinding, store: StoreBinding) {
        self.vm = vm
        self.scheduler = scheduler
        self.plugins = plugins
        self.store = store
    }
}
