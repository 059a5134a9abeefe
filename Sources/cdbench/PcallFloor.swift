import ArgumentParser
import CBenchFloor
import CLua
import CLuaShim
import Foundation

/// The floor under every tick: a bare C loop of lua_pcall into a trivial Lua function.
struct PcallFloor: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "pcall-floor", abstract: "Bare lua_pcall loop.")

    @Option(help: "Calls.") var count = 10_000_000

    func run() throws {
        let L = luaL_newstate()!
        defer { lua_close(L) }
        _ = cd_open_libs(L)
        let source = "return function(t) end"
        _ = cd_load_text(L, source, source.utf8.count, "=floor")
        _ = cd_pcall_traceback(L, 0, 1)
        let ref = cd_ref(L)
        let cpu = cdb_pcall_floor(L, ref, Int64(count))
        var m = Measurement()
        m.set("bench", "pcall_floor")
        m.set("calls", count)
        m.set("ns_per_call", Double(cpu) / Double(count))
        m.printJSON()
    }
}
