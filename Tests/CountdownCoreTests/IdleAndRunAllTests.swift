import CountdownCore
import Testing

@Suite("No wake-ups while idle; runAll stops a script that restarts itself forever")
struct IdleAndRunAllTests {
    @Test("a fresh scheduler has nothing due")
    func freshSchedulerIsIdle() {
        let h = Harness()
        #expect(h.scheduler.nextDue() == nil)
        #expect(h.scheduler.activeCount == 0)
        #expect(h.scheduler.next(h.clock) == nil)
    }

    @Test("nextDue is nil once every countdown has finished")
    func idleAfterFinish() throws {
        let h = Harness()
        h.start(2, every: 0.5)
        h.start(1, every: 1)
        try h.runAll()
        #expect(h.scheduler.nextDue() == nil)
        #expect(h.scheduler.activeCount == 0)
    }

    @Test("nextDue is nil after cancelling everything, even with ticks that were queued")
    func idleAfterCancelAll() {
        let h = Harness()
        for i in 1...20 { h.start(Double(i), every: Double(i % 3 + 1) / 4) }
        h.advance(to: 1.1)
        #expect(h.scheduler.nextDue() != nil)
        h.scheduler.cancelAll()
        #expect(h.scheduler.nextDue() == nil)
        let count = h.events.count
        h.advance(to: 1000)
        #expect(h.events.count == count)
    }

    @Test("nextDue is nil after cancelling each countdown one by one")
    func idleAfterCancellingEach() {
        let h = Harness()
        let keys = (1...5).map { h.start(Double($0) * 10, every: 1) }
        h.advance(to: 3.3)
        for key in keys.reversed() { h.scheduler.cancel(key) }
        #expect(h.scheduler.nextDue() == nil)
    }

    @Test("nextDue is nil while every active countdown is paused, and returns on resume")
    func idleWhilePaused() {
        let h = Harness()
        let a = h.start(10, every: 1)
        let b = h.start(10, every: 0.25)
        h.advance(to: 1.1)
        h.scheduler.pause(a)
        h.scheduler.pause(b)
        #expect(h.scheduler.nextDue() == nil)
        h.scheduler.resume(b)
        #expect(h.scheduler.nextDue() == s(1.25))
    }

    @Test("nextDue skips a cancelled countdown's pending tick")
    func nextDueSkipsStale() {
        let h = Harness()
        let soon = h.start(10, every: 0.1)
        h.start(10, every: 1)
        h.scheduler.cancel(soon)
        #expect(h.scheduler.nextDue() == s(1))
    }

    @Test("runAll runs every countdown to its end and leaves the clock at the last event")
    func runAllCompletes() throws {
        let h = Harness()
        h.start(3, every: 1)
        h.start(4.5, every: 0.5)
        try h.runAll(limit: 100)
        #expect(h.recorder.endCount == 2)
        #expect(h.now == s(4.5))
    }

    @Test("runAll throws RunAllLimitReached for a countdown restarted from its own end hook forever")
    func runAllLimit() {
        let h = Harness()
        h.recorder.onEnd = { _, reason in
            if reason == .finished { h.start(1, every: 1) }
        }
        h.start(1, every: 1)
        #expect(throws: RunAllLimitReached.self) { try h.runAll(limit: 50) }
        #expect(h.scheduler.activeCount == 1)
        do throws(RunAllLimitReached) {
            try h.scheduler.runAll(h.clock, limit: 10)
            Issue.record("runAll returned although the countdown restarts forever")
        } catch {
            #expect(error.limit == 10)
            #expect(error.time == h.now)
            #expect(error.description.contains("10 ticks"))
        }
    }

    @Test("runAll counts ticks from its own start: a fresh limit allows that many more")
    func runAllLimitIsPerCall() throws {
        let h = Harness()
        h.start(100, every: 1)
        #expect(throws: RunAllLimitReached.self) { try h.runAll(limit: 10) }
        let ticks = h.recorder.tickCount
        #expect(ticks == 11) // the first tick, then 10 fired by runAll
        try h.runAll(limit: 1000)
        #expect(h.recorder.tickCount == 100)
    }
}
