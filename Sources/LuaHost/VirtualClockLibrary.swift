import CLua
import CLuaShim
import CountdownCore
import FoundationEssentials

/// The global `clock` table of `cdscript test`: drives the host's scheduler on
/// its `VirtualClock`, synchronously, on the calling thread.
///
/// An error raised by a hook while a clock function runs is raised again by
/// that function, after the other due ticks have fired, so the test that moved
/// the clock fails with the hook's message and traceback.
public enum VirtualClockLibrary {
    /// The default loop limit of `clock.run_all`.
    public static let defaultRunAllLimit = 100_000

    /// Installs the global `clock`. The scheduler's clock must be a `VirtualClock`.
    public static func install(in host: LuaHost) {
        precondition(host.scheduler.clock is VirtualClock, "the clock library needs a scheduler on a VirtualClock")
        let L = host.vm.state
        L.pushTable(fields: 7)
        host.register([
            ("advance", Self.clockAdvance),
            ("next", Self.clockNext),
            ("run_all", Self.clockRunAll),
            ("now", Self.clockNow),
            ("wall", Self.clockWall),
            ("set_wall", Self.clockSetWall),
            ("stall", Self.clockStall),
        ], into: L)
        host.setGlobal("clock")
    }

    private static func virtualClock(of host: LuaHost) -> VirtualClock {
        host.scheduler.clock as! VirtualClock
    }

    /// What the clock functions move: the host's `clockGroup` (this process and the
    /// others a test started on the same machine), else the host's scheduler alone.
    private static func group(of host: LuaHost) -> SchedulerGroup {
        host.clockGroup ?? SchedulerGroup(clock: virtualClock(of: host), schedulers: [host.scheduler])
    }

    /// The clock is the test's to move, and it is already moving while a hook runs.
    private static func refuseInsideHook(_ host: LuaHost, _ function: String) throws(APIError) {
        guard !host.scheduler.isDispatching, host.clockGroup?.isDispatching != true else {
            throw APIError("\(function) cannot be called while a hook runs; move the clock from the test itself")
        }
    }

    /// Runs `body`, collecting the hook errors it causes instead of reporting
    /// them, and raises them afterwards.
    private static func raisingHookErrors(_ host: LuaHost, _ function: String, _ body: () throws(APIError) -> Void) throws(APIError) {
        try refuseInsideHook(host, function)
        let outer = host.reportError
        let collected = HookErrorCollector()
        host.reportError = { collected.messages.append($0) }
        defer { host.reportError = outer }
        try body()
        guard let first = collected.messages.first else { return }
        let more = collected.messages.count > 1 ? "\n(and \(collected.messages.count - 1) more hook error(s) in the same step)" : ""
        throw APIError(first + more)
    }

    /// A duration argument in seconds, >= 0.
    private static func seconds(_ L: LuaState, _ index: Int32, _ fn: String) throws(APIError) -> Nanoseconds {
        guard let value = L.number(at: index) else {
            throw APIError("\(fn): expected a number of seconds, got \(L.typeName(at: index))")
        }
        guard let ns = Time.nanoseconds(fromSeconds: value), ns >= 0 else {
            throw APIError("\(fn): seconds must be a finite number >= 0, got \(StartOptions.format(value))")
        }
        return ns
    }

    /// Runs a function of a test library made outside this module (the other
    /// processes of `cdscript test`) as the clock functions run: as a host call
    /// from `L` (hooks fired meanwhile run as they would under `clock.advance`),
    /// refused while a hook runs, and raising the hook errors it caused once it is
    /// done. `body` pushes its results and returns their count; what it throws is
    /// raised with its description as the message.
    public static func testLibraryCall(_ L: OpaquePointer?, host: LuaHost, function: String, _ body: (LuaState) throws -> Int32) -> Int32 {
        LuaHost.hostCall(L, host.context) { host, L throws(APIError) in
            var results: Int32 = 0
            try raisingHookErrors(host, function) { () throws(APIError) in
                do {
                    results = try body(L)
                } catch let error as APIError {
                    throw error
                } catch {
                    throw APIError("\(error)")
                }
            }
            return results
        }
    }

    static let clockAdvance: cd_host_function = { L, context in
        LuaHost.hostCall(L, context) { host, L throws(APIError) in
            let duration = try seconds(L, 1, "clock.advance")
            try raisingHookErrors(host, "clock.advance") { () throws(APIError) in
                group(of: host).advance(to: virtualClock(of: host).boot + duration)
            }
            lua_pushnumber(L.raw, Time.seconds(host.scheduler.now))
            return 1
        }
    }

    static let clockNext: cd_host_function = { L, context in
        LuaHost.hostCall(L, context) { host, L throws(APIError) in
            var moved: Nanoseconds?
            try raisingHookErrors(host, "clock.next") { () throws(APIError) in
                moved = group(of: host).next()
            }
            if let moved { lua_pushnumber(L.raw, Time.seconds(moved)) } else { L.pushNil() }
            return 1
        }
    }

    static let clockRunAll: cd_host_function = { L, context in
        LuaHost.hostCall(L, context) { host, L throws(APIError) in
            let fn = "clock.run_all"
            var limit = VirtualClockLibrary.defaultRunAllLimit
            switch L.type(at: 1) {
            case LUA_TNONE, LUA_TNIL:
                break
            case LUA_TTABLE:
                try StartOptions.checkFieldNames(L, at: 1, allowed: ["limit"], function: fn)
                L.rawField(1, "limit")
                defer { L.pop() }
                if L.type(at: -1) != LUA_TNIL {
                    guard let value = L.number(at: -1), value >= 1, value <= 1e12, value == value.rounded() else {
                        throw APIError("\(fn): 'limit' must be a whole number >= 1, got \(L.typeName(at: -1) == "number" ? StartOptions.format(L.number(at: -1)!) : L.typeName(at: -1))")
                    }
                    limit = Int(value)
                }
            default:
                throw APIError("\(fn): expected an options table such as {limit = 1000}, got \(L.typeName(at: 1))")
            }
            var reached: RunAllLimitReached?
            try raisingHookErrors(host, fn) { () throws(APIError) in
                do throws(RunAllLimitReached) {
                    try group(of: host).runAll(limit: limit)
                } catch {
                    reached = error
                }
            }
            if let reached { throw APIError("\(fn): \(reached)") }
            lua_pushnumber(L.raw, Time.seconds(host.scheduler.now))
            return 1
        }
    }

    static let clockNow: cd_host_function = { L, context in
        LuaHost.hostCall(L, context) { host, L throws(APIError) in
            lua_pushnumber(L.raw, Time.seconds(host.scheduler.now))
            return 1
        }
    }

    static let clockWall: cd_host_function = { L, context in
        LuaHost.hostCall(L, context) { host, L throws(APIError) in
            let offset = virtualClock(of: host).wallNow() - virtualClock(of: host).bootNow()
            lua_pushnumber(L.raw, Time.seconds(host.scheduler.now + offset))
            return 1
        }
    }

    static let clockSetWall: cd_host_function = { L, context in
        LuaHost.hostCall(L, context) { host, L throws(APIError) in
            let fn = "clock.set_wall"
            try refuseInsideHook(host, fn)
            let clock = virtualClock(of: host)
            let wall: Nanoseconds
            if let seconds = L.number(at: 1) {
                guard let ns = Time.nanoseconds(fromSeconds: seconds) else {
                    throw APIError("\(fn): seconds since the epoch must be finite, got \(seconds)")
                }
                wall = ns
            } else if let text = L.string(at: 1) {
                do {
                    wall = try DeadlineParser.parse(text, wallNow: clock.wallNow(), timeZone: host.timeZone)
                } catch {
                    throw APIError("\(fn): \"\(text)\": \(error)")
                }
            } else {
                throw APIError("\(fn): expected a date such as \"2026-12-01T19:59:50+08:00\" or seconds since the epoch, got \(L.typeName(at: 1))")
            }
            clock.setWall(wall)
            // As in production, where the loop learns of the change at once and
            // runs a pass: `at` countdowns follow the jump, a passed deadline ends.
            try raisingHookErrors(host, fn) { () throws(APIError) in
                group(of: host).runDue()
            }
            return 0
        }
    }

    static let clockStall: cd_host_function = { L, context in
        LuaHost.hostCall(L, context) { host, L throws(APIError) in
            let duration = try seconds(L, 1, "clock.stall")
            try raisingHookErrors(host, "clock.stall") { () throws(APIError) in
                group(of: host).stall(for: duration)
            }
            lua_pushnumber(L.raw, Time.seconds(host.scheduler.now))
            return 1
        }
    }
}

/// Hook errors reported while a clock function runs.
private final class HookErrorCollector {
    var messages: [String] = []
}
