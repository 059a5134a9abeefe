import CountdownCore
import Foundation
import LuaHost
import Testing
import TerminalView

/// A clock that moves a little every time it is read, either clock, as real time
/// does while a script starts a hundred thousand countdowns.
final class CreepingClock: TimeSource {
    var boot: Nanoseconds = 0
    let step: Nanoseconds
    init(step: Nanoseconds) { self.step = step }
    func bootNow() -> Nanoseconds {
        boot += step
        return boot
    }
    func wallNow() -> Nanoseconds { 1_798_761_600 * Time.nanosecondsPerSecond + bootNow() }
}

@Suite("What the examples show on a terminal")
struct ExampleScreenTests {
    @Test("flash_sale.lua on a one-row terminal shows the time, not the heading")
    func flashSaleOneRow() {
        let h = ViewHarness(columns: 30, rows: 1)
        #expect(h.runExample("flash_sale.lua") == nil)
        #expect(h.screen == "          00:00:05.0")
        h.advance(1.5)
        #expect(h.screen == "          00:00:03.5")
    }

    @Test("many.lua shows the true time left even when starting the items takes a while")
    func manyShowsRealValues() throws {
        // Each clock read costs 40 µs: starting 20000 items (two reads each: the
        // script's countdown.now() and the start's) takes seconds of clock time.
        let clock = CreepingClock(step: 40_000)
        let scheduler = Scheduler(clock: clock)
        let host = LuaHost(scheduler: scheduler)
        let terminal = VirtualTerminal(columns: 60, rows: 10)
        let view = ViewController(output: .screen(terminal, colours: false))
        host.installView(view)
        let path = ViewHarness.examples.appendingPathComponent("many.lua").path
        #expect(host.runScript(atPath: path, arguments: ["20000", "30", "5"])?.message == nil)
        #expect(clock.boot > 1_000_000_000, "the start took \(clock.boot) ns")
        // Run the scheduler for three seconds of clock time, as the run loop does.
        let end = clock.boot + 3 * Time.nanosecondsPerSecond
        while let due = scheduler.nextDue(), due <= end {
            clock.boot = max(clock.boot, due)
            scheduler.runDue()
        }
        view.render()
        let texts = (1...5).map { view.element("next-\($0)")?.text ?? "" }
        for text in texts { #expect(text.hasSuffix("closes in 0.1s"), "\(texts)") }
        #expect(view.element("summary")?.text.hasSuffix("of 20000 items open") == true)
    }
}
