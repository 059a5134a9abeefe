import CountdownCore
import Testing

@Suite("After a stall: one catch-up tick with the true remaining time, never a burst")
struct StallCatchUpTests {
    @Test("a stall of several intervals gives one tick with the true remaining and missed = floor(lateness / every)")
    func oneCatchUpTick() throws {
        let h = Harness()
        let key = h.start(10, every: 1)
        h.advance(to: 2)
        h.recorder.clear()
        h.stall(for: 3.5) // the tick due at 3 is 2.5 s late
        #expect(h.events == [Event(kind: .tick, key: key, instant: s(5.5), remaining: s(4.5), total: s(10),
                                   missed: 2, depth: 0)])
        h.recorder.clear()
        try h.runAll()
        #expect(h.recorder.remainings(key) == [s(4), s(3), s(2), s(1)])
        #expect(h.recorder.instants(key) == [s(6), s(7), s(8), s(9)])
        #expect(h.recorder.ends(key).map(\.instant) == [s(10)])
        #expect(h.events.allSatisfy { $0.missed == 0 })
    }

    @Test("tenths: a 0.75 s stall misses 6 ticks and the next tick is back on the tenth")
    func tenthsCatchUp() {
        let h = Harness()
        let key = h.start(10, every: 0.1)
        h.stall(for: 0.75)
        let ticks = h.recorder.ticks(key)
        #expect(ticks.count == 2)
        #expect(ticks.last?.instant == s(0.75))
        #expect(ticks.last?.remaining == s(9.25))
        #expect(ticks.last?.missed == 6)
        #expect(h.scheduler.nextDue() == s(0.8))
        h.advance(to: 0.8)
        #expect(h.recorder.ticks(key).last?.remaining == s(9.2))
        #expect(h.recorder.ticks(key).last?.missed == 0)
    }

    @Test("a stall of exactly one interval past a due tick is a catch-up with missed = 1")
    func exactMultiple() {
        let h = Harness()
        let key = h.start(10, every: 1)
        h.advance(to: 2)
        h.recorder.clear()
        h.stall(for: 2)
        #expect(h.events.map(\.remaining) == [s(6)])
        #expect(h.events.map(\.instant) == [s(4)])
        #expect(h.events.map(\.missed) == [1])
        #expect(h.scheduler.nextDue() == s(5))
        _ = key
    }

    @Test("a stall shorter than the time to the next tick fires nothing")
    func shortStall() {
        let h = Harness()
        h.start(10, every: 1)
        h.advance(to: 2)
        h.recorder.clear()
        h.stall(for: 0.5)
        #expect(h.events.isEmpty)
        #expect(h.scheduler.nextDue() == s(3))
    }

    @Test("a tick less than one interval late is delivered as the on-time tick it stands for")
    func lessThanAnIntervalLate() {
        let h = Harness()
        let key = h.start(10, every: 1)
        h.advance(to: 2)
        h.recorder.clear()
        h.stall(for: 1.5) // the tick due at 3 is 0.5 s late
        #expect(h.events == [Event(kind: .tick, key: key, instant: s(3), remaining: s(7), total: s(10),
                                   missed: 0, depth: 0)])
        #expect(h.scheduler.nextDue() == s(4))
    }

    @Test("if the deadline passed during the stall: exactly one end(.finished) at the deadline, no extra tick")
    func deadlinePassedDuringStall() throws {
        for (duration, skipped) in [(3.0, Int64(2)), (2.5, 2), (1.0, 0), (0.5, 0)] {
            let h = Harness()
            let key = h.start(duration, every: 1)
            h.recorder.clear()
            h.stall(for: 10)
            #expect(h.events.count == 1, "duration \(duration)")
            let end = try #require(h.events.first)
            #expect(end.kind == .end(.finished))
            #expect(end.key == key)
            #expect(end.instant == s(duration), "the end stands for the deadline, not the late wake-up")
            #expect(end.remaining == 0)
            #expect(end.missed == skipped, "duration \(duration)")
            #expect(h.scheduler.activeCount == 0)
            #expect(h.scheduler.nextDue() == nil)
            h.stall(for: 10)
            #expect(h.events.count == 1)
        }
    }

    @Test("an end-only countdown stalled past its deadline ends once")
    func endOnlyStalled() {
        let h = Harness()
        let key = h.start(3, every: 1, wantsTicks: false)
        h.stall(for: 60)
        #expect(h.recorder.ends(key).count == 1)
        #expect(h.recorder.ends(key).first?.instant == s(3))
        #expect(h.recorder.ends(key).first?.missed == 0)
        #expect(h.recorder.ticks(key).count == 1)
    }

    @Test("a paused countdown gets no catch-up tick")
    func pausedNoCatchUp() {
        let h = Harness()
        let key = h.start(10, every: 1)
        h.advance(to: 1.5)
        h.scheduler.pause(key)
        h.recorder.clear()
        h.stall(for: 100)
        #expect(h.events.isEmpty)
        #expect(h.scheduler.remaining(key) == s(8.5))
    }

    @Test("inside a catch-up tick's hook, now is the wake-up time")
    func nowInCatchUpHook() {
        let h = Harness()
        var seen: Nanoseconds?
        h.recorder.onTick = { tick in if tick.missed > 0 { seen = h.scheduler.now } }
        h.start(10, every: 1)
        h.stall(for: 4.25)
        #expect(seen == s(4.25))
    }

    @Test("several countdowns: each gets exactly one event, in instant order, ties in start order")
    func severalCountdowns() {
        let h = Harness()
        let a = h.start(10, every: 1)
        let b = h.start(10, every: 0.5)
        let c = h.start(2, every: 1)
        let d = h.start(10, every: 0.25)
        h.advance(to: 0.2)
        h.recorder.clear()
        h.stall(for: 5)
        // c ended at its deadline, 2 s, long before the wake-up; the catch-ups stand for 5.2 s.
        #expect(h.events.map(\.key) == [c, a, b, d])
        #expect(h.events.map(\.instant) == [s(2), s(5.2), s(5.2), s(5.2)])
        #expect(h.events.map(\.kind) == [.end(.finished), .tick, .tick, .tick])
        #expect(h.events.map(\.remaining) == [0, s(4.8), s(4.8), s(4.8)])
        #expect(h.events.map(\.missed) == [1, 4, 9, 19])
    }

    @Test("a countdown started from a late end hook lives out its time within the same catch-up pass, in order")
    func startedFromLateEndHook() throws {
        let h = Harness()
        var startedKey: CountdownKey?
        h.recorder.onEnd = { _, reason in
            if reason == .finished && startedKey == nil { startedKey = h.start(1.5, every: 1) }
        }
        let long = h.start(10, every: 1)
        let short = h.start(2, every: 1)
        h.advance(to: 0.2)
        h.recorder.clear()
        h.stall(for: 5)
        let started = try #require(startedKey)
        let e = h.events
        #expect(e.count == 4)
        #expect(e.map(\.key) == [short, started, started, long])
        #expect(e.map(\.kind) == [.end(.finished), .tick, .end(.finished), .tick])
        #expect(e.map(\.instant) == [s(2), s(2), s(3.5), s(5.2)])
        #expect(e.map(\.missed) == [1, 0, 1, 4])
        #expect(zip(e, e.dropFirst()).allSatisfy { $0.instant <= $1.instant }, "hooks never see time run backwards")
    }

    @Test("repeated stalls: after each, ticks resume on the alignment of the deadline")
    func repeatedStalls() throws {
        let h = Harness()
        let key = h.start(20, every: 2)
        h.stall(for: 4.5)
        h.stall(for: 0.3)
        h.stall(for: 7.9)
        try h.runAll()
        let ticks = h.recorder.ticks(key)
        for tick in ticks {
            #expect(tick.remaining == s(20) - tick.instant)
            if tick.missed == 0 && tick.instant > 0 { #expect(tick.remaining % s(2) == 0) }
        }
        // Every scheduled tick is either delivered or counted as missed.
        #expect(Int64(ticks.count) + ticks.map(\.missed).reduce(0, +) == 10)
        #expect(h.recorder.ends(key).map(\.instant) == [s(20)])
    }
}
