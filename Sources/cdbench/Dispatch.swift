import ArgumentParser
import CountdownCore
import EventLoop
import Foundation
import LuaHost

/// N countdowns ticking every 0.1 s, each calling a trivial Lua on_tick:
/// CPU nanoseconds per tick, on the virtual clock or in real time.
struct Dispatch: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Tick dispatch throughput.")

    @Option(help: "Countdowns.") var count = 100_000
    @Option(help: "Seconds of (virtual or real) time to measure.") var seconds = 2.0
    @Flag(help: "Run in real time on the boot clock instead of the virtual clock.") var real = false
    @Flag(help: "With the limits `cdscript run` sets by default (a memory cap, no instruction count); none otherwise.")
    var runLimits = false
    @Option(help: "An instruction budget per callback, as `cdscript run --budget N` counts it (0: none).")
    var budget: Int64 = 0

    func run() throws {
        let virtual = VirtualClock()
        let clock: TimeSource = real ? BootClock() : virtual
        let scheduler = Scheduler(clock: clock)
        var limits: ScriptLimits = runLimits ? .runDefaults : .none
        limits.instructionBudget = budget
        let host = LuaHost(scheduler: scheduler, limits: limits)
        // The countdowns start from one hook (a helper's first tick), where the
        // clock reads that tick's instant: they share one phase, as luv's timers
        // started in one loop iteration share its cached time (scripts/luv/dispatch.lua).
        let setup = String(decoding: PackageResources.dispatch_setup_lua, as: UTF8.self)
        if let failure = host.runScript(source: Data(setup.utf8), chunkName: "=dispatch", arguments: ["dispatch", String(count)]) {
            throw ValidationError("set-up failed: \(failure)")
        }
        var m = Measurement()
        m.set("bench", real ? "dispatch_real" : "dispatch_virtual")
        m.set("countdowns", count)
        m.set("limits", runLimits ? "run" : "none")
        let ticksBefore = scheduler.dispatchCount
        let cpuBefore = cpuNanoseconds()
        if real {
            let loop = try MainLoop(scheduler: scheduler)
            let end = clock.bootNow() + Int64(seconds * 1e9)
            loop.isDone = { clock.bootNow() >= end }
            _ = loop.run()
            m.set("loop_wakeups", loop.wakeups)
        } else {
            scheduler.advance(virtual, to: virtual.boot + Int64(seconds * 1e9))
        }
        let cpu = cpuNanoseconds() - cpuBefore
        let ticks = scheduler.dispatchCount - ticksBefore
        m.set("seconds", seconds)
        m.set("ticks", ticks)
        m.set("expected_ticks", Int(Double(count) * seconds * 10))
        m.set("cpu_ns", cpu)
        m.set("ns_per_tick", Double(cpu) / Double(max(1, ticks)))
        m.printJSON()
    }
}
