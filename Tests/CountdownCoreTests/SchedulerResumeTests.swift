import CountdownCore
import Testing

private let s = Time.nanosecondsPerSecond

private final class ResumeRecorder: SchedulerDelegate {
    var events: [String] = []
    func countdownDidTick(_ tick: Tick) {
        events.append("tick \(Time.seconds(tick.remaining)) elapsed \(Time.seconds(tick.elapsed))" + (tick.missed > 0 ? " missed \(tick.missed)" : ""))
    }
    func countdownDidEnd(_ tick: Tick, reason: EndReason) {
        events.append("end \(reason) at \(Time.seconds(tick.instant))")
    }
}

@Suite("Starting a countdown picked up from a store")
struct SchedulerResumeTests {
    @Test("a boot-clock deadline is absolute: the first tick shows the time left until it")
    func bootDeadline() {
        let clock = VirtualClock(boot: 100 * s)
        let scheduler = Scheduler(clock: clock)
        let recorder = ResumeRecorder()
        scheduler.delegate = recorder
        let key = scheduler.start(CountdownSpec(id: "x", deadline: .boot(103 * s), length: 10 * s))
        scheduler.announce(key)
        #expect(scheduler.bootDeadline(key) == 103 * s)
        #expect(scheduler.followsWallClock(key) == false)
        scheduler.advance(clock, to: 110 * s)
        #expect(recorder.events == [
            "tick 3.0 elapsed 7.0", "tick 2.0 elapsed 8.0", "tick 1.0 elapsed 9.0", "end finished at 103.0",
        ])
    }

    @Test("a boot-clock deadline never moves when the wall clock jumps")
    func bootDeadlineIgnoresWallJumps() {
        let clock = VirtualClock(boot: 0)
        let scheduler = Scheduler(clock: clock)
        let key = scheduler.start(CountdownSpec(deadline: .boot(5 * s)))
        scheduler.announce(key)
        clock.setWall(clock.wallNow() + 3600 * s)
        scheduler.advance(clock, to: 2 * s)
        #expect(scheduler.remaining(key) == 3 * s)
    }

    @Test("a boot-clock deadline already passed ends at once, without a tick")
    func passedDeadline() {
        let clock = VirtualClock(boot: 50 * s)
        let scheduler = Scheduler(clock: clock)
        let recorder = ResumeRecorder()
        scheduler.delegate = recorder
        scheduler.announce(scheduler.start(CountdownSpec(deadline: .boot(40 * s))))
        #expect(recorder.events == ["end finished at 50.0"])
        #expect(scheduler.activeCount == 0)
    }

    @Test("without a length, the length is the time left; a length keeps progress going")
    func lengthKeepsProgress() {
        let clock = VirtualClock(boot: 0)
        let scheduler = Scheduler(clock: clock)
        let plain = scheduler.start(CountdownSpec(deadline: .after(4 * s)))
        let resumed = scheduler.start(CountdownSpec(deadline: .after(4 * s), length: 8 * s))
        let atWall = scheduler.start(CountdownSpec(deadline: .wall(clock.wallNow() + 4 * s), length: 6 * s))
        #expect(scheduler.total(plain) == 4 * s)
        #expect(scheduler.total(resumed) == 8 * s)
        #expect(scheduler.total(atWall) == 6 * s)
        #expect(scheduler.followsWallClock(atWall) == true)
    }

    @Test("a countdown started and paused before its first tick reports the frozen time and no tick")
    func startedPaused() {
        let clock = VirtualClock(boot: 0)
        let scheduler = Scheduler(clock: clock)
        let recorder = ResumeRecorder()
        scheduler.delegate = recorder
        let key = scheduler.start(CountdownSpec(deadline: .after(7 * s), length: 9 * s))
        scheduler.pause(key)
        scheduler.announce(key)
        scheduler.advance(clock, to: 20 * s)
        #expect(recorder.events.isEmpty)
        #expect(scheduler.remaining(key) == 7 * s)
        #expect(scheduler.bootDeadline(key) == 27 * s)
        scheduler.resume(key)
        scheduler.advance(clock, to: 30 * s)
        #expect(recorder.events.first == "tick 6.0 elapsed 3.0")
        #expect(recorder.events.last == "end finished at 27.0")
    }
}
