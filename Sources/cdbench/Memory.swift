import ArgumentParser
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
        _ = host.runScript(source: Data("collectgarbage(); collectgarbage()".utf8), chunkName: "=gc")
        let before = residentBytes()
        let script = """
            local function on_tick(t) end
            local start = countdown.start
            for i = 1, tonumber(...) do
              start{ seconds = 1e6, every = 0.1, on_tick = on_tick }
            end
            collectgarbage(); collectgarbage()
            """
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
        m.printJSON()
    }
}
