import CountdownCore
import Testing

@Suite("pause freezes the remaining time; resume continues on the same alignment")
struct PauseResumeTests {
    @Test("no ticks while paused, and the remaining time stays frozen")
    func pausedIsSilent() {
        let h = Harness()
        let key = h.start(10, every: 1)
        h.advance(to: 2.3)
        #expect(h.scheduler.pause(key))
        #expect(h.scheduler.state(key) == .paused)
        let before = h.recorder.tickCount
        h.advance(to: 100)
        #expect(h.recorder.tickCount == before)
        #expect(h.recorder.endCount == 0)
        #expect(h.scheduler.remaining(key) == s(7.7))
        #expect(h.scheduler.nextDue() == nil)
        #expect(h.scheduler.activeCount == 1)
    }

    @Test("resume keeps the ticks where remaining is a whole multiple of every")
    func resumeKeepsAlignment() throws {
        let h = Harness()
        let key = h.start(10, every: 1)
        h.advance(to: 2.3)
        h.scheduler.pause(key)
        h.advance(to: 5)
        h.recorder.clear()
        #expect(h.scheduler.resume(key))
        #expect(h.scheduler.state(key) == .running)
        #expect(h.events.isEmpty, "resume itself fires nothing")
        #expect(h.scheduler.nextDue() == s(5.7))
        try h.runAll()
        #expect(h.recorder.remainings(key) == [7, 6, 5, 4, 3, 2, 1].map { s($0) })
        #expect(h.recorder.instants(key) == [5.7, 6.7, 7.7, 8.7, 9.7, 10.7, 11.7].map { s($0) })
        #expect(h.recorder.ends(key).map(\.instant) == [s(12.7)])
    }

    @Test("pausing at a tick's instant and resuming later: the next tick is one interval after resume")
    func pauseInsideTick() throws {
        let h = Harness()
        let key = h.start(5, every: 1)
        h.recorder.onTick = { tick in
            if tick.remaining == s(3) { h.scheduler.pause(tick.key) }
        }
        h.advance(to: 10)
        #expect(h.recorder.remainings(key) == [s(5), s(4), s(3)])
        #expect(h.scheduler.remaining(key) == s(3))
        h.scheduler.resume(key)
        try h.runAll()
        #expect(h.recorder.remainings(key) == [s(5), s(4), s(3), s(2), s(1)])
        #expect(h.recorder.instants(key) == [0, s(1), s(2), s(11), s(12)])
        #expect(h.recorder.ends(key).map(\.instant) == [s(13)])
    }

    @Test("pause on a paused countdown and resume on a running one return false")
    func doubleCallsReturnFalse() {
        let h = Harness()
        let key = h.start(10, every: 1)
        #expect(!h.scheduler.resume(key))
        #expect(h.scheduler.pause(key))
        #expect(!h.scheduler.pause(key))
        #expect(h.scheduler.resume(key))
        #expect(!h.scheduler.resume(key))
    }

    @Test("repeated pause/resume never doubles the tick rate")
    func noDoubledTicks() throws {
        let h = Harness()
        let key = h.start(10, every: 1)
        for t in [0.2, 0.4, 1.5, 1.5, 2.25] {
            h.advance(to: t)
            h.scheduler.pause(key)
            h.scheduler.pause(key)
            h.scheduler.resume(key)
            h.scheduler.resume(key)
        }
        try h.runAll()
        // Paused for no time at all: exactly the ticks of an undisturbed 10 s countdown.
        #expect(h.recorder.remainings(key) == (1...10).reversed().map { s(Double($0)) })
        #expect(h.recorder.ends(key).count == 1)
        #expect(h.recorder.ends(key).first?.instant == s(10))
    }

    @Test("many pause/resume cycles each shift the deadline by the paused time and nothing more")
    func pausedTimeAddsUp() throws {
        let h = Harness()
        let key = h.start(4, every: 1)
        h.advance(to: 0.5)
        for cycle in 0..<3 {
            h.scheduler.pause(key)
            h.advance(to: 0.5 + Double(cycle) * 2 + 1)
            h.scheduler.resume(key)
            h.advance(to: 0.5 + Double(cycle) * 2 + 2)
            h.scheduler.pause(key)
            h.scheduler.resume(key)
        }
        // 3 s spent paused in all: the end moves from 4 s to 7 s.
        #expect(h.now == s(6.5))
        #expect(h.scheduler.remaining(key) == s(0.5))
        try h.runAll()
        let ticks = h.recorder.ticks(key)
        #expect(ticks.map(\.remaining) == [s(4), s(3), s(2), s(1)])
        #expect(ticks.map(\.instant) == [0, s(2), s(4), s(6)])
        #expect(h.recorder.ends(key).map(\.instant) == [s(7)])
        #expect(h.recorder.ends(key).first?.total == s(4))
    }

    @Test("pause and resume on an ended countdown return false")
    func endedCountdown() throws {
        let h = Harness()
        let key = h.start(1, every: 1)
        try h.runAll()
        #expect(!h.scheduler.pause(key))
        #expect(!h.scheduler.resume(key))
        #expect(h.scheduler.state(key) == nil)
    }

    @Test("runAll returns when every active countdown is paused")
    func runAllWithOnlyPaused() throws {
        let h = Harness()
        let key = h.start(10, every: 1)
        h.scheduler.pause(key)
        try h.runAll(limit: 10)
        #expect(h.scheduler.activeCount == 1)
        #expect(h.now == 0)
    }
}
