import CLua
import CountdownCore

/// The host's part for countdowns: the `countdown` library, the handles scripts
/// hold (their methods, `h:append`, `h:pause`, ...) and how each countdown is
/// launched into the scheduler with its hooks.
///
/// Owned by its `LuaHost`, which it points back to without a strong reference:
/// the part never outlives the host.
public final class CountdownBinding {
    /// The host this part belongs to, set once by the host as it is made (a
    /// part is made before its host is whole, so that the host can hold it in a
    /// `let`). Checked `unowned`: a use after the host went traps. Not read on
    /// the hot path: loading it cost every start and fetch about 48 instructions
    /// (a `swift_unownedRetainStrong` and a release; scripts/bench-instructions),
    /// so a launch is handed the host by the host function that launches
    /// (`launch(_:by:...)`; docs/performance.md, "Back-pointers").
    unowned var host: LuaHost!
    /// The Lua state and the scheduler, the host's, kept here so that a launch
    /// reads them without going through the host.
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
