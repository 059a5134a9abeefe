import CountdownCore
import Testing

@Suite("Ticks land where the remaining time is a whole multiple of `every`")
struct SchedulerTickTests {
    @Test("start creates a countdown but fires nothing until announce")
    func startIsSilent() {
        let h = Harness()
        let key = h.scheduler.start(CountdownSpec(deadline: .after(s(3))))
        #expect(h.events.isEmpty)
        #expect(h.scheduler.state(key) == .running)
        #expect(h.scheduler.activeCount == 1)
        #expect(h.scheduler.nextDue() == nil)
    }

    @Test("announce fires the first tick synchronously with the full duration")
    func announceFiresFirstTick() {
        let h = Harness()
        let key = h.scheduler.start(CountdownSpec(deadline: .after(s(3))))
        h.scheduler.announce(key)
        #expect(h.events == [Event(kind: .tick, key: key, instant: 0, remaining: s(3), total: s(3), missed: 0, depth: 0)])
        #expect(h.scheduler.nextDue() == s(1))
    }

    @Test("an announce that comes late still reports the first tick at the start instant, with the full duration")
    func lateAnnounce() throws {
        let h = Harness()
        let key = h.scheduler.start(CountdownSpec(deadline: .after(s(3))))
        h.clock.set(boot: s(0.25)) // the host took a while to register its hooks
        h.scheduler.announce(key)
        #expect(h.events.map(\.instant) == [0])
        #expect(h.events.map(\.remaining) == [s(3)])
        try h.runAll()
        #expect(h.recorder.instants(key) == [0, s(1), s(2)])
        #expect(h.recorder.ends(key).map(\.instant) == [s(3)])
    }

    @Test("3 s every 1 s: ticks 3, 2, 1, then one end at t = 3")
    func threeSeconds() throws {
        let h = Harness()
        let key = h.start(3, every: 1)
        try h.runAll()
        #expect(h.recorder.remainings(key) == [s(3), s(2), s(1)])
        #expect(h.recorder.instants(key) == [0, s(1), s(2)])
        let ends = h.recorder.ends(key)
        #expect(ends.count == 1)
        #expect(ends.first?.kind == .end(.finished))
        #expect(ends.first?.instant == s(3))
        #expect(ends.first?.remaining == 0)
        #expect(ends.first?.missed == 0)
        #expect(h.events.last?.isEnd == true)
        #expect(h.scheduler.activeCount == 0)
    }

    @Test("1.5 s every 0.1 s: exactly 15 ticks 1.5, 1.4, ..., 0.1 in exact nanoseconds")
    func tenthsAreExact() throws {
        let h = Harness()
        let key = h.start(1.5, every: 0.1)
        try h.runAll()
        let expected: [Nanoseconds] = (1...15).reversed().map { Nanoseconds($0) * 100_000_000 }
        #expect(h.recorder.remainings(key) == expected)
        #expect(h.recorder.remainings(key).contains(300_000_000))
        #expect(h.recorder.instants(key) == (0..<15).map { Nanoseconds($0) * 100_000_000 })
        #expect(h.recorder.ends(key).map(\.instant) == [1_500_000_000])
        #expect(h.recorder.ticks(key).allSatisfy { $0.missed == 0 })
    }

    @Test("2.5 s every 1 s: ticks 2.5, 2, 1; the first interval is the short one; end at 2.5")
    func unalignedDuration() throws {
        let h = Harness()
        let key = h.start(2.5, every: 1)
        try h.runAll()
        #expect(h.recorder.remainings(key) == [s(2.5), s(2), s(1)])
        #expect(h.recorder.instants(key) == [0, s(0.5), s(1.5)])
        #expect(h.recorder.ends(key).map(\.instant) == [s(2.5)])
    }

    @Test("a duration shorter than one interval ticks once, then ends")
    func shorterThanInterval() throws {
        let h = Harness()
        let key = h.start(0.4, every: 1)
        try h.runAll()
        #expect(h.recorder.remainings(key) == [s(0.4)])
        #expect(h.recorder.ends(key).map(\.instant) == [s(0.4)])
    }

    @Test("every tick reports remaining = deadline - instant and the countdown's total")
    func remainingMatchesInstant() throws {
        let h = Harness()
        let key = h.start(7.3, every: 0.7)
        try h.runAll()
        let ticks = h.recorder.ticks(key)
        #expect(ticks.count == 11) // 7.3, then 7.0, 6.3, ..., 0.7
        for tick in ticks {
            #expect(tick.remaining == s(7.3) - tick.instant)
            #expect(tick.total == s(7.3))
        }
        #expect(ticks.dropFirst().allSatisfy { $0.remaining % s(0.7) == 0 })
    }

    @Test("the scheduler's `now` inside a hook is the tick's instant")
    func nowInsideHook() throws {
        let h = Harness()
        var seen: [Nanoseconds] = []
        h.recorder.onTick = { tick in seen.append(h.scheduler.now - tick.instant) }
        h.start(2.5, every: 1)
        try h.runAll()
        #expect(seen == [0, 0, 0])
    }

    @Test("announce ends at once when the duration is zero or negative")
    func zeroDurationEndsAtOnce() {
        for duration in [0, -1.5] {
            let h = Harness()
            let key = h.start(duration)
            #expect(h.events.count == 1)
            #expect(h.events.first?.kind == .end(.finished))
            #expect(h.events.first?.remaining == 0)
            #expect(h.scheduler.state(key) == nil)
            #expect(h.scheduler.nextDue() == nil)
        }
    }

    @Test("an `at` deadline that already passed fires its first tick, at 0, then ends at once on announce")
    func pastWallDeadlineEndsAtOnce() {
        let h = Harness()
        let key = h.start(.wall(h.clock.wallNow() - s(10)))
        #expect(h.events.map(\.kind) == [.tick, .end(.finished)])
        #expect(h.events.map(\.remaining) == [0, 0])
        #expect(h.events.first?.key == key)
        #expect(h.events.first?.instant == 0)
        #expect(h.scheduler.activeCount == 0)
    }

    @Test("wantsTicks = false: after the first tick only the end is scheduled")
    func endOnly() throws {
        let h = Harness()
        let key = h.start(5, every: 1, wantsTicks: false)
        #expect(h.scheduler.nextDue() == s(5))
        try h.runAll()
        #expect(h.recorder.ticks(key).count == 1)
        #expect(h.recorder.ends(key).map(\.instant) == [s(5)])
    }

    @Test("advance fires exactly the ticks due up to the instant and leaves the clock there")
    func advanceStopsAtInstant() {
        let h = Harness()
        let key = h.start(10, every: 1)
        h.advance(to: 3.5)
        #expect(h.recorder.remainings(key) == [s(10), s(9), s(8), s(7)])
        #expect(h.now == s(3.5))
        #expect(h.scheduler.remaining(key) == s(6.5))
        #expect(h.scheduler.nextDue() == s(4))
    }

    @Test("next moves to the next due tick, fires it and returns the new time")
    func nextStepsOneTick() {
        let h = Harness()
        let key = h.start(2.5, every: 1)
        #expect(h.scheduler.next(h.clock) == s(0.5))
        #expect(h.recorder.remainings(key) == [s(2.5), s(2)])
        #expect(h.scheduler.next(h.clock) == s(1.5))
        #expect(h.scheduler.next(h.clock) == s(2.5))
        #expect(h.recorder.ends(key).count == 1)
        #expect(h.scheduler.next(h.clock) == nil)
    }

    @Test("Tick derives elapsed, progress and breakdown from remaining and total")
    func tickDerivedValues() {
        let key = CountdownKey(slot: 0, generation: 1)
        let quarter = Tick(key: key, instant: 0, remaining: s(30), total: s(40), missed: 0)
        #expect(quarter.elapsed == s(10))
        #expect(quarter.progress == 0.25)
        #expect(quarter.breakdown == TimeBreakdown(s(30)))
        let grown = Tick(key: key, instant: 0, remaining: s(50), total: s(40), missed: 0)
        #expect(grown.elapsed == 0)
        #expect(grown.progress == 0)
        let empty = Tick(key: key, instant: 0, remaining: 0, total: 0, missed: 0)
        #expect(empty.progress == 1)
    }
}
