import CountdownCore
import Testing

@Suite("ScaledClock: time flows N times faster on the same machinery (run --speed N)")
struct ScaledClockTests {
    let second = Time.nanosecondsPerSecond

    @Test("boot time starts at the base's instant and moves N times faster")
    func bootMovesFaster() throws {
        let base = VirtualClock(boot: 1_000 * second)
        let clock = try ScaledClock(base: base, speed: 60)
        #expect(clock.bootNow() == 1_000 * second)
        base.set(boot: 1_001 * second)
        #expect(clock.bootNow() == 1_060 * second)
        base.set(boot: 1_001 * second + 500_000_000)
        #expect(clock.bootNow() == 1_090 * second)
    }

    @Test("a speed below 1 slows time down")
    func slower() throws {
        let base = VirtualClock(boot: 0)
        let clock = try ScaledClock(base: base, speed: 0.5)
        base.set(boot: 10 * second)
        #expect(clock.bootNow() == 5 * second)
    }

    @Test("wall time moves with scaled time, and a jump of the real wall clock still shows")
    func wall() throws {
        let base = VirtualClock(boot: 0, wall: 1_800_000_000 * second)
        let clock = try ScaledClock(base: base, speed: 10)
        base.set(boot: 2 * second)
        #expect(clock.wallNow() == (1_800_000_000 + 20) * second)
        base.setWall(1_900_000_000 * second)
        #expect(clock.wallNow() == (1_900_000_000 + 18) * second)
    }

    @Test("baseInstant is the earliest real instant at which a scaled instant has come")
    func inverse() throws {
        let base = VirtualClock(boot: 123_456_789)
        for speed in [0.3, 1, 2.5, 7, 60, 1_000, 123_456.7] {
            let clock = try ScaledClock(base: base, speed: speed)
            for offset: Nanoseconds in [0, 1, 999, 1_000_000, 1_234_567_891, 86_400 * second] {
                let scaled = clock.origin + offset
                let real = clock.baseInstant(scaled)
                #expect(clock.scaled(real) >= scaled, "speed \(speed) offset \(offset)")
                #expect(real == clock.origin || clock.scaled(real - 1) < scaled, "speed \(speed) offset \(offset)")
            }
        }
    }

    @Test("zero, negative, infinite and NaN speeds are refused")
    func invalid() {
        for speed in [0, -1, Double.infinity, -Double.infinity, Double.nan] {
            #expect(throws: ScaledClock.InvalidSpeed.self) { try ScaledClock(base: VirtualClock(), speed: speed) }
        }
    }

    @Test("a scheduler on a scaled clock: a 60 s countdown ends after 1 real second at speed 60, every tick on its instant")
    func schedulerOnScaledClock() throws {
        final class Ticks: SchedulerDelegate {
            var remaining: [Nanoseconds] = []
            var ended = 0
            func countdownDidTick(_ tick: Tick) { remaining.append(tick.remaining) }
            func countdownDidEnd(_ tick: Tick, reason: EndReason) { ended += 1 }
        }
        let base = VirtualClock(boot: 5 * second)
        let clock = try ScaledClock(base: base, speed: 60)
        let scheduler = Scheduler(clock: clock)
        let ticks = Ticks()
        scheduler.delegate = ticks
        scheduler.announce(scheduler.start(CountdownSpec(deadline: .after(60 * second))))
        // Drive it as MainLoop does: sleep until the real instant of the next tick, then run.
        while let due = scheduler.nextDue() {
            base.set(boot: max(base.boot, clock.baseInstant(due)))
            scheduler.runDue()
        }
        #expect(ticks.remaining == (1...60).reversed().map { Nanoseconds($0) * second })
        #expect(ticks.ended == 1)
        #expect(base.boot - 5 * second <= second + 60)
        #expect(base.boot - 5 * second >= second)
    }
}
