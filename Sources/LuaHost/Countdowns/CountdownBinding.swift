import CLua
import CountdownCore

/// The host's part for countdowns: the `countdown` library, the handles scripts
/// hold (their methods, `h:append`, `h:pause`, ...) and how each countdown is
/// launched into the scheduler with its hooks.
///
/// Owned by its `LuaHost`, which it points back to without a reference count: a
/// start is on the hot path, and the part never outlives the host.
public final class CountdownBinding {
    unowned(unsafe) let host: LuaHost
    /// Registry references to the handles' method table and the `countdown` table.
    var methodsRef: Int32 = LUA_NOREF
    var tableRef: Int32 = LUA_NOREF
    /// Patterns `countdown.format` parsed, by their text (at most 257 kept).
    var patterns: [String: FormatPattern] = [:]

    init(host: LuaHost) {
        self.host = host
    }

    var scheduler: Scheduler { host.scheduler }
    var vm: LuaVM { host.vm }
}
