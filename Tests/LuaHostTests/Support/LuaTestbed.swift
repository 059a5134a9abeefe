import CLua
import CLuaShim
import CountdownCore
import Foundation
import LuaHost
import Testing

/// Seconds as whole nanoseconds, rounded: `ns(0.3) == 300_000_000` exactly.
func ns(_ seconds: Double) -> Nanoseconds {
    Nanoseconds((seconds * 1e9).rounded())
}

/// A zone with a fixed offset and no daylight saving, so clock times are predictable.
func fixedZone(hours: Int) -> TimeZone {
    TimeZone(secondsFromGMT: hours * 3600)!
}

/// Collects what the host reports; a class so the host's closure does not retain the testbed.
final class ErrorSink {
    var messages: [String] = []
}

/// Registry entries: all of them, and those that hold a value (luaL_ref's free
/// list keeps freed slots as integer links, so only non-numbers are live references).
struct RegistryCensus: Equatable, CustomStringConvertible {
    var entries: Int
    var live: Int
    var description: String { "\(live) live of \(entries) entries" }
}

/// A `LuaHost` driven by a `Scheduler` on a `VirtualClock`.
///
/// The prelude replaces `print` with a function that appends its arguments, joined
/// by single spaces, to the global table `log`; `lines` reads that table back.
/// Boot time starts at 0, wall time at 2027-01-01T00:00:00Z.
final class LuaTestbed {
    static let prelude = """
        log = {}
        function print(...)
          local parts = {}
          for i = 1, select("#", ...) do parts[i] = tostring((select(i, ...))) end
          log[#log + 1] = table.concat(parts, " ")
        end
        """

    /// 2027-01-01T00:00:00Z, the virtual clock's default wall start.
    static let wallStart: Nanoseconds = 1_798_761_600 * Time.nanosecondsPerSecond

    let clock: VirtualClock
    let scheduler: Scheduler
    let host: LuaHost
    private let sink = ErrorSink()

    init(timeZone: TimeZone = fixedZone(hours: 0), limits: ScriptLimits = .none) {
        clock = VirtualClock(boot: 0, wall: Self.wallStart)
        scheduler = Scheduler(clock: clock)
        host = LuaHost(scheduler: scheduler, limits: limits)
        host.timeZone = timeZone
        let sink = self.sink
        host.reportError = { sink.messages.append($0) }
        let failure = host.runScript(source: Data(Self.prelude.utf8), chunkName: "=prelude", arguments: ["prelude"])
        precondition(failure == nil, "prelude failed: \(failure!.message)")
    }

    /// The main Lua state.
    var L: LuaState { host.vm.state }

    /// Values on the main Lua stack; 0 whenever Lua is idle.
    var top: Int32 { host.vm.top }

    /// What `reportError` received, in order.
    var errors: [String] { sink.messages }

    // MARK: Running Lua

    /// Runs `source` as the script "test" (so messages read `test:LINE:`).
    @discardableResult
    func run(_ source: String, arguments: [String] = ["test.lua"]) -> ScriptFailure? {
        host.runScript(source: Data(source.utf8), chunkName: "=test", arguments: arguments)
    }

    /// Runs `source` and records an issue when it fails.
    func mustRun(_ source: String, arguments: [String] = ["test.lua"], sourceLocation: SourceLocation = #_sourceLocation) {
        if let failure = run(source, arguments: arguments) {
            Issue.record("script failed (\(failure.kind)): \(failure.message)", sourceLocation: sourceLocation)
        }
    }

    /// `tostring(expression)`, evaluated by a script of its own.
    func eval(_ expression: String, sourceLocation: SourceLocation = #_sourceLocation) -> String? {
        if let failure = host.runScript(source: Data("__eval = tostring(\(expression))".utf8), chunkName: "=eval") {
            Issue.record("eval of \(expression) failed: \(failure.message)", sourceLocation: sourceLocation)
            return nil
        }
        return global("__eval")
    }

    /// `tostring` of a global, or nil when it is nil. Reads through the C API, stack balanced.
    func global(_ name: String) -> String? {
        let top = L.top
        defer { L.setTop(top) }
        if lua_getglobal(L.raw, name) == LUA_TNIL { return nil }
        return string(at: -1)
    }

    /// The lines `print` has written so far.
    var lines: [String] {
        let top = L.top
        defer { L.setTop(top) }
        guard lua_getglobal(L.raw, "log") == LUA_TTABLE else { return [] }
        let count = L.rawLength(at: -1)
        guard count > 0 else { return [] }
        var out: [String] = []
        for i in 1...count {
            L.rawItem(-1, i)
            out.append(string(at: -1))
            L.pop(1)
        }
        return out
    }

    /// The lines written so far, then forgets them.
    func takeLines() -> [String] {
        let taken = lines
        cd_new_table(L.raw)
        lua_setglobal(L.raw, "log")
        return taken
    }

    /// `luaL_tolstring` of the value at `index`, leaving the stack as it was.
    private func string(at index: Int32) -> String {
        var length = 0
        let pointer = luaL_tolstring(L.raw, index, &length)!
        let text = pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
        L.pop(1)
        return text
    }

    // MARK: Time

    /// Fires everything due up to `seconds` on the boot clock.
    func advance(to seconds: Double) {
        scheduler.advance(clock, to: ns(seconds))
    }

    /// Time passes with no ticks, then one catch-up pass runs.
    func stall(for seconds: Double) {
        scheduler.stall(clock, for: ns(seconds))
    }

    func runAll(limit: Int = 1_000_000) throws {
        try scheduler.runAll(clock, limit: limit)
    }

    /// Boot time in seconds.
    var now: Double { Time.seconds(clock.boot) }

    // MARK: Registry

    func registryCensus() -> RegistryCensus {
        let top = L.top
        defer { L.setTop(top) }
        let registry = cd_registry_index()
        var census = RegistryCensus(entries: 0, live: 0)
        L.pushNil()
        while lua_next(L.raw, registry) != 0 {
            census.entries += 1
            if L.type(at: -1) != LUA_TNUMBER { census.live += 1 }
            L.pop(1)
        }
        return census
    }
}
