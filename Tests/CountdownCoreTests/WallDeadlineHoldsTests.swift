import Testing
@testable import CountdownCore

/// Issue 13: an `at` deadline is a fact about the world; changes show at once.
@Suite("`at` deadlines under pause, past deadlines, and tickNow")
struct WallDeadlineHoldsTests {
    /// The harness's wall clock at boot 0: 2027-01-01T00:00:00Z.
    static let wallStart: Nanoseconds = 1_798_761_600 * Time.nanosecondsPerSecond

    @Test("pausing an `at` countdown freezes its remaining time; resume continues to the unchanged deadline")
    func pauseAtKeepsDeadline() throws {
        let h = Harness()
        let sale = h.start(.wall(Self.wallStart + s(60)))
        h.advance(to: 10)
        #expect(h.scheduler.pause(sale))
        h.advance(to: 30)
        #expect(h.scheduler.remaining(sale) == s(50))
        #expect(h.scheduler.wallDeadline(sale) == Self.wallStart + s(60))
        #expect(h.scheduler.resume(sale))
        #expect(h.scheduler.remaining(sale) == s(30))
        try h.runAll()
        #expect(h.recorder.ends(sale).map(\.instant) == [s(60)])
        // Ticks stay on the deadline's alignment: whole seconds before 60.
        #expect(h.recorder.remainings(sale).allSatisfy { $0 % s(1) == 0 })
    }

    @Test("an `at` countdown paused past its deadline ends when resumed; appending while paused moves the deadline")
    func pausedPastDeadline() throws {
        let h = Harness()
        let a = h.start(.wall(Self.wallStart + s(5)))
        let b = h.start(.wall(Self.wallStart + s(5)))
        h.scheduler.pause(a)
        h.scheduler.pause(b)
        h.scheduler.append(b, s(10))
        h.advance(to: 8)
        #expect(h.recorder.ends(a).isEmpty)
        h.scheduler.resume(a)
        h.scheduler.resume(b)
        h.advance(to: 8)
        #expect(h.recorder.ends(a).map(\.instant) == [s(8)])
        #expect(h.scheduler.remaining(b) == s(7))
        #expect(h.scheduler.wallDeadline(b) == Self.wallStart + s(15))
    }

    @Test("an `at` deadline already past fires a first tick at 0, then the end")
    func pastDeadline() {
        let h = Harness()
        let late = h.start(.wall(Self.wallStart - s(30)))
        #expect(h.events.map(\.kind) == [.tick, .end(.finished)])
        #expect(h.recorder.remainings(late) == [0])
        // Without tick listeners only the end fires.
        let quiet = h.start(.wall(Self.wallStart - s(30)), wantsTicks: false)
        #expect(h.recorder.events(quiet).map(\.kind) == [.end(.finished)])
    }

    @Test("tickNow fires a tick with the remaining time now and leaves the queued ticks on their phase")
    func tickNow() throws {
        let h = Harness()
        let c = h.start(10, every: 1)
        h.advance(to: 2.5)
        h.scheduler.append(c, s(30))
        h.scheduler.tickNow(c)
        h.scheduler.pause(c)
        h.scheduler.tickNow(c)
        h.advance(to: 3.5)
        h.scheduler.resume(c)
        h.scheduler.tickNow(c)
        h.advance(to: 5)
        #expect(h.recorder.remainings(c) == [s(10), s(9), s(8), s(37.5), s(37.5), s(37.5), s(37), s(36)])
        #expect(h.recorder.instants(c) == [0, s(1), s(2), s(2.5), s(2.5), s(3.5), s(4), s(5)])
        // Without tick listeners, only the tick of the start.
        let quiet = h.start(10, wantsTicks: false)
        h.scheduler.tickNow(quiet)
        #expect(h.recorder.ticks(quiet).count == 1)
    }

    @Test("tickNow from the countdown's own tick, or from inside another immediate tick, fires nothing")
    func tickNowDoesNotRecurse() {
        let h = Harness()
        let a = h.start(10, every: 1)
        let b = h.start(10, every: 1)
        h.recorder.onTick = { tick in
            // Each asks for an immediate tick of itself and of the other.
            h.scheduler.tickNow(tick.key)
            h.scheduler.tickNow(tick.key == a ? b : a)
        }
        h.advance(to: 1)
        // At 1 s: a's tick, b's immediate tick (inside it nothing more), b's tick, a's immediate tick.
        let atOne = h.events.filter { $0.instant == s(1) }
        #expect(atOne.map(\.key) == [a, b, b, a])
        #expect(atOne.map(\.depth) == [0, 1, 0, 1])
    }
}
