import ArgumentParser
import CBenchFloor
import CountdownCore
import Foundation
import LuaHost

/// One script-level operation repeated N times from Lua, on the virtual clock:
/// CPU nanoseconds per operation. `scripts/luv/operations.lua` does the nearest
/// luv operation the same way, and scripts/bench runs both side by side.
///
/// - start: `countdown.start{ seconds = 1, every = 0.1, on_tick = f }`, the first
///   tick's hook call included (it runs inside start), the option table too.
/// - start_id: the same with `id = ids[i]` (ids made before the measurement).
/// - start_floor: the same loop calling `start_floor` (CBenchFloor/start_floor.c)
///   instead: the steps any such start takes through Lua's C API (the options
///   read in one pass, a handle keeping the hook, a reference keeping the handle,
///   the first tick's protected call) and nothing of the host's. What `start`
///   counts beyond it is the host's own.
/// - fetch: `countdown.fetch(id, { on_tick = f })` of a persistent countdown, from
///   an in-memory store (the host's part; SQLite adds its own read), each fetch
///   replacing the countdown the previous one picked up.
/// - append, cancel: `h:append(1)`, `h:cancel()` on N running countdowns.
/// - cancel_all: `countdown.cancel_all()` with N running; per countdown.
struct Operations: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "ops", abstract: "Start/fetch/append/cancel/cancel_all, per operation.")

    @Option(help: "start, start_id, start_floor, fetch, append, cancel or cancel_all.") var op = "start"
    @Option(help: "Operations.") var count = 100_000
    @Flag(help: "With the limits `cdscript run` sets by default.") var runLimits = false

    static let setups: [String: String] = [
        "start": "",
        "start_id": "ids = {} for i = 1, n do ids[i] = 'c' .. i end",
        "start_floor": "",
        "fetch": "countdown.start{ id = 'kept', seconds = 1e6, every = 0.1, persist = true, on_tick = f }",
        "append": "hs = {} for i = 1, n do hs[i] = countdown.start{ seconds = 1e6, every = 0.1, on_tick = f } end",
        "cancel": "hs = {} for i = 1, n do hs[i] = countdown.start{ seconds = 1e6, every = 0.1, on_tick = f } end",
        "cancel_all": "for i = 1, n do countdown.start{ seconds = 1e6, every = 0.1, on_tick = f } end",
    ]
    static let bodies: [String: String] = [
        "start": "local start = countdown.start for i = 1, n do start{ seconds = 1, every = 0.1, on_tick = f } end",
        "start_id": "local start, ids = countdown.start, ids for i = 1, n do start{ id = ids[i], seconds = 1, every = 0.1, on_tick = f } end",
        "start_floor": "local start = start_floor for i = 1, n do start{ seconds = 1, every = 0.1, on_tick = f } end",
        "fetch": "local fetch, o = countdown.fetch, { on_tick = f } for i = 1, n do fetch('kept', o) end",
        "append": "local hs = hs for i = 1, n do hs[i]:append(1) end",
        "cancel": "local hs = hs for i = 1, n do hs[i]:cancel() end",
        "cancel_all": "countdown.cancel_all()",
    ]

    /// Runs the measured part alone, in a function of its own, so that callgrind
    /// can count exactly what the CPU time covers:
    /// `valgrind --tool=callgrind --toggle-collect='*measuredBody*' cdbench ops ...`.
    @inline(never)
    static func measuredBody(_ host: LuaHost, _ body: String, _ op: String) -> ScriptFailure? {
        host.runScript(source: Data(body.utf8), chunkName: "=\(op)")
    }

    func run() throws {
        guard let setup = Self.setups[op], let body = Self.bodies[op] else {
            throw ValidationError("unknown operation \(op); known: \(Self.bodies.keys.sorted().joined(separator: ", "))")
        }
        let clock = VirtualClock()
        let scheduler = Scheduler(clock: clock)
        let host = LuaHost(scheduler: scheduler, limits: runLimits ? .runDefaults : .none)
        host.store.persistence = InMemoryCountdownStore()
        if op == "start_floor" { cdb_register_start_floor(host.vm.state.raw) }
        let prologue = "n = tonumber(...) f = function(t) end "
        if let failure = host.runScript(source: Data((prologue + setup).utf8), chunkName: "=setup", arguments: ["ops", String(count)]) {
            throw ValidationError("set-up failed: \(failure)")
        }
        let cpuBefore = cpuNanoseconds()
        if let failure = Self.measuredBody(host, body, op) {
            throw ValidationError("\(op) failed: \(failure)")
        }
        let cpu = cpuNanoseconds() - cpuBefore
        var m = Measurement()
        m.set("bench", "ops")
        m.set("op", op)
        m.set("count", count)
        m.set("limits", runLimits ? "run" : "none")
        m.set("cpu_ns", cpu)
        m.set("ns_per_operation", Double(cpu) / Double(count))
        m.printJSON()
    }
}
