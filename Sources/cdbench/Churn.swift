import ArgumentParser
import CountdownCore
import Foundation
import LuaHost

/// Start, append and cancel operations from Lua, a third each.
struct Churn: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Start/append/cancel churn.")

    @Option(help: "Operations in all.") var operations = 1_000_000

    func run() throws {
        let clock = VirtualClock()
        let scheduler = Scheduler(clock: clock)
        let host = LuaHost(scheduler: scheduler)
        let script = """
            local rounds = math.floor(tonumber(...) / 3)
            local start = countdown.start
            local opts = { seconds = 60, every = 1 }
            for i = 1, rounds do
              local h = start(opts)
              h:append(5)
              h:cancel()
            end
            """
        let cpuBefore = cpuNanoseconds()
        if let failure = host.runScript(source: Data(script.utf8), chunkName: "=churn", arguments: ["churn", String(operations)]) {
            throw ValidationError("churn failed: \(failure)")
        }
        let cpu = cpuNanoseconds() - cpuBefore
        var m = Measurement()
        m.set("bench", "churn")
        m.set("operations", operations / 3 * 3)
        m.set("ns_per_operation", Double(cpu) / Double(operations / 3 * 3))
        m.printJSON()
    }
}
