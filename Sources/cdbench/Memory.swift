import ArgumentParser
import CLua
import CLuaShim
import CountdownCore
import Foundation
import LuaHost

/// Bytes per countdown (scheduler record, queue entry, host references and the
/// Lua handle) and peak resident memory with N countdowns.
struct Memory: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Memory per countdown.")

    @Option(help: "Countdowns.") var count = 1_000_000

    func run() throws {
        let clock = VirtualClock()
        let scheduler = Scheduler(clock: clock)
        let host = LuaHost(scheduler: scheduler)
        _ = host.runScript(source: Data("collectgarbage(); collectgarbage(); lua_kb_before = collectgarbage('count')".utf8), chunkName: "=gc")
        let before = residentBytes()
        let script = String(decoding: PackageResources.memory_lua, as: UTF8.self)
        if let failure = host.runScript(source: Data(script.utf8), chunkName: "=memory", arguments: ["memory", String(count)]) {
            throw ValidationError("set-up failed: \(failure)")
        }
        // One tick round so every countdown sits in the FIFO queues, as in a long run.
        scheduler.advance(clock, to: 100_000_000)
        let after = residentBytes()
        var m = Measurement()
        m.set("bench", "memory")
        m.set("countdowns", count)
        m.set("rss_bytes", after)
        m.set("bytes_per_countdown", Double(after - before) / Double(count))
        let luaKB = try Self.global(host, "lua_kb") - Self.global(host, "lua_kb_before")
        let luaBytes = luaKB * 1024 / Double(count)
        // The host holds nothing per countdown outside Lua: its per-countdown words
        // (the handle's reference, the hook flags) live in the scheduler's records.
        let swiftBytes = Double(scheduler.storageBytes) / Double(count)
        m.set("lua_bytes_per_countdown", luaBytes)
        m.set("core_bytes_per_countdown", swiftBytes)
        m.set("structural_bytes_per_countdown", luaBytes + swiftBytes)
        m.printJSON()
    }

    /// A number global of the host's state, read without metamethods.
    static func global(_ host: LuaHost, _ name: String) throws -> Double {
        let L = host.vm.state
        L.pushGlobals()
        defer { L.pop(2) }
        L.rawField(-1, name)
        guard let value = L.number(at: -1) else { throw ValidationError("no number in \(name)") }
        return value
    }
}
