import ArgumentParser
import CBenchFloor
import CountdownCore
import EventLoop
import Foundation

/// Lateness of ticks against the ideal absolute schedule, beside the
/// clock_nanosleep(TIMER_ABSTIME) floor measured in the same run.
struct Accuracy: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Tick lateness and drift.")

    @Option(help: "Ticks.") var ticks = 1000
    @Option(help: "Interval in milliseconds.") var periodMs = 10

    /// Records each event's lateness against its ideal instant. A catch-up tick
    /// stands for the first tick it replaced, so its lateness counts from there.
    final class Recorder: SchedulerDelegate {
        let clock: BootClock
        let period: Nanoseconds
        var nextIdeal: Nanoseconds = 0
        var lateness: [Int64] = []
        var missed: Int64 = 0
        init(clock: BootClock, period: Nanoseconds) { self.clock = clock; self.period = period }
        func countdownDidTick(_ tick: Tick) { record(tick) }
        func countdownDidEnd(_ tick: Tick, reason: EndReason) { record(tick) }
        private func record(_ tick: Tick) {
            let now = clock.bootNow()
            lateness.append(now - nextIdeal)
            missed += tick.missed
            nextIdeal += (tick.missed + 1) * period
        }
    }

    func run() throws {
        let period = Nanoseconds(periodMs) * 1_000_000
        let clock = BootClock()
        let scheduler = Scheduler(clock: clock)
        let recorder = Recorder(clock: clock, period: period)
        scheduler.delegate = recorder
        let loop = try MainLoop(scheduler: scheduler)
        let key = scheduler.start(CountdownSpec(deadline: .after(period * Nanoseconds(ticks)), every: period))
        // Ticks are aligned to the deadline: the start tick's instant is one whole
        // length before it, and it fires inside announce.
        recorder.nextIdeal = scheduler.bootDeadline(key)! - period * Nanoseconds(ticks)
        scheduler.announce(key)
        _ = loop.run()
        // Drop the start tick: it fires inside start, not from the timer.
        let late = Array(recorder.lateness.dropFirst())
        var floor = [Int64](repeating: 0, count: ticks)
        floor.withUnsafeMutableBufferPointer { cdb_nanosleep_schedule(period, Int32(ticks), $0.baseAddress) }
        var m = Measurement()
        m.set("bench", "accuracy")
        m.set("ticks", late.count)
        m.set("missed", recorder.missed)
        m.set("period_ms", periodMs)
        let sorted = late.sorted(), floorSorted = floor.sorted()
        m.set("p50_us", Double(Stats.percentile(sorted, 0.5)) / 1000)
        m.set("p99_us", Double(Stats.percentile(sorted, 0.99)) / 1000)
        m.set("max_us", Double(sorted.last ?? 0) / 1000)
        m.set("last_tick_drift_us", Double(late.last ?? 0) / 1000)
        m.set("floor_p50_us", Double(Stats.percentile(floorSorted, 0.5)) / 1000)
        m.set("floor_p99_us", Double(Stats.percentile(floorSorted, 0.99)) / 1000)
        m.set("floor_max_us", Double(floorSorted.last ?? 0) / 1000)
        m.printJSON()
    }
}
