import ArgumentParser
import CBenchFloor
import CLua
import CLuaShim
import Foundation

/// The floor under every tick: a bare C loop of lua_pcall into a trivial Lua function.
struct PcallFloor: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "pcall-floor", abstract: "Bare lua_pcall loop.")

    @Option(help: "Calls.") var count = 10_000_000
    @Option(help: "In real time: this many calls at once, every 100 ms, for --seconds (0: one tight loop of --count).")
    var burst = 0
    @Option(help: "Seconds of real time, with --burst.") var seconds = 3.0

    func run() throws {
        let L = luaL_newstate()!
        defer { lua_close(L) }
        _ = cd_open_libs(L)
        let source = "return function(t) end"
        _ = cd_load_text(L, source, source.utf8.count, "=floor")
        _ = cd_pcall_traceback(L, 0, 1)
        let ref = cd_ref(L)
        var calls = Int64(count)
        let cpu = burst > 0
            ? cdb_pcall_floor_bursts(L, ref, Int64(burst), 100_000_000, seconds, &calls)
            : cdb_pcall_floor(L, ref, calls)
        var m = Measurement()
        m.set("bench", burst > 0 ? "pcall_floor_bursts" : "pcall_floor")
        m.set("calls", calls)
        if burst > 0 { m.set("burst", burst) }
        m.set("ns_per_call", Double(cpu) / Double(max(1, calls)))
        m.printJSON()
    }
}
