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
        let script = String(decoding: PackageResources.churn_lua, as: UTF8.self)
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
