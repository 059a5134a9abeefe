import CountdownCore
import Testing

@Suite("append moves the deadline; ticks stay at whole multiples of every from it")
struct AppendTests {
    @Test("appending whole intervals to a running countdown keeps the tick alignment")
    func wholeIntervalsKeepAlignment() throws {
        let h = Harness()
        let key = h.start(3, every: 1)
        h.advance(to: 1.4)
        #expect(h.scheduler.append(key, s(2)))
        #expect(h.scheduler.remaining(key) == s(3.6))
        #expect(h.scheduler.total(key) == s(5))
        #expect(h.scheduler.nextDue() == s(2))
        try h.runAll()
        #expect(h.recorder.remainings(key) == [s(3), s(2), s(3), s(2), s(1)])
        #expect(h.recorder.instants(key) == [0, s(1), s(2), s(3), s(4)])
        #expect(h.recorder.ends(key).map(\.instant) == [s(5)])
        #expect(h.recorder.ends(key).first?.total == s(5))
        #expect(h.recorder.ticks(key).last?.total == s(5))
    }

    @Test("appending a fraction of an interval re-phases the ticks onto the new deadline")
    func fractionRephases() throws {
        let h = Harness()
        let key = h.start(3, every: 1)
        h.advance(to: 1.2)
        h.scheduler.append(key, s(0.5))
        // Deadline 3.5: ticks where remaining is 2 and 1, i.e. at 1.5 and 2.5.
        #expect(h.scheduler.nextDue() == s(1.5))
        try h.runAll()
        #expect(h.recorder.remainings(key) == [s(3), s(2), s(2), s(1)])
        #expect(h.recorder.instants(key) == [0, s(1), s(1.5), s(2.5)])
        #expect(h.recorder.ends(key).map(\.instant) == [s(3.5)])
    }

    @Test("appending more than an interval but not a multiple re-phases too")
    func mixedAmountRephases() throws {
        let h = Harness()
        let key = h.start(10, every: 1)
        h.advance(to: 3)
        h.scheduler.append(key, s(2.25))
        try h.runAll()
        let after = h.recorder.ticks(key).filter { $0.instant > s(3) }
        #expect(after.first?.instant == s(3.25))
        #expect(after.allSatisfy { $0.remaining % s(1) == 0 })
        #expect(after.map(\.remaining) == (1...9).reversed().map { s(Double($0)) })
        #expect(h.recorder.ends(key).map(\.instant) == [s(12.25)])
    }

    @Test("a negative append moves the deadline earlier and re-aligns")
    func negativeAppend() throws {
        let h = Harness()
        let key = h.start(10, every: 1)
        h.advance(to: 2.5)
        #expect(h.scheduler.append(key, s(-3)))
        #expect(h.scheduler.remaining(key) == s(4.5))
        try h.runAll()
        let after = h.recorder.ticks(key).filter { $0.instant > s(2.5) }
        #expect(after.map(\.remaining) == [s(4), s(3), s(2), s(1)])
        #expect(after.map(\.instant) == [s(3), s(4), s(5), s(6)])
        #expect(h.recorder.ends(key).map(\.instant) == [s(7)])
    }

    @Test("a negative append beyond the remaining time ends the countdown at once, finished, once")
    func negativeAppendPastDeadline() throws {
        let h = Harness()
        let key = h.start(10, every: 1)
        h.advance(to: 2.5)
        #expect(h.scheduler.append(key, s(-60)))
        #expect(h.scheduler.state(key) == nil)
        #expect(h.recorder.ends(key).count == 1)
        #expect(h.recorder.ends(key).first?.kind == .end(.finished))
        #expect(h.recorder.ends(key).first?.instant == s(2.5))
        #expect(h.recorder.ticks(key).count == 3)
        #expect(h.scheduler.nextDue() == nil)
        try h.runAll()
        #expect(h.recorder.ends(key).count == 1)
    }

    @Test("append on a paused countdown adds to its frozen remaining time")
    func appendWhilePaused() throws {
        let h = Harness()
        let key = h.start(10, every: 1)
        h.advance(to: 2.3)
        h.scheduler.pause(key)
        #expect(h.scheduler.append(key, s(1.5)))
        #expect(h.scheduler.remaining(key) == s(9.2))
        #expect(h.scheduler.total(key) == s(11.5))
        #expect(h.scheduler.state(key) == .paused)
        #expect(h.scheduler.nextDue() == nil, "append does not wake a paused countdown")
        h.advance(to: 4)
        h.scheduler.resume(key)
        #expect(h.scheduler.nextDue() == s(4.2))
        try h.runAll()
        #expect(h.recorder.ends(key).map(\.instant) == [s(13.2)])
    }

    @Test("append on an ended countdown returns false and changes nothing")
    func appendOnEnded() throws {
        let h = Harness()
        let key = h.start(1, every: 1)
        try h.runAll()
        let events = h.events
        #expect(!h.scheduler.append(key, s(5)))
        #expect(h.scheduler.activeCount == 0)
        #expect(h.scheduler.nextDue() == nil)
        #expect(h.events == events)
    }

    @Test("append on a cancelled countdown returns false")
    func appendOnCancelled() {
        let h = Harness()
        let key = h.start(5, every: 1)
        h.scheduler.cancel(key)
        #expect(!h.scheduler.append(key, s(5)))
    }

    @Test("append on an end-only countdown moves its end")
    func appendEndOnly() throws {
        let h = Harness()
        let key = h.start(5, every: 1, wantsTicks: false)
        h.advance(to: 1)
        h.scheduler.append(key, s(3))
        #expect(h.scheduler.nextDue() == s(8))
        try h.runAll()
        #expect(h.recorder.ends(key).map(\.instant) == [s(8)])
        #expect(h.recorder.ticks(key).count == 1)
    }

    @Test("appending at the last tick turns the pending end into ticks")
    func appendAtTheEnd() throws {
        let h = Harness()
        let key = h.start(3, every: 1)
        h.advance(to: 2.5) // the next event queued is the end at 3
        h.scheduler.append(key, s(2))
        try h.runAll()
        #expect(h.recorder.remainings(key) == [s(3), s(2), s(1), s(2), s(1)])
        #expect(h.recorder.ends(key).map(\.instant) == [s(5)])
    }
}
