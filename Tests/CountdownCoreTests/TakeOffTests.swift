import CountdownCore
import Testing

/// Issue 29, "Taking time off": a negative append shortens the deadline; taking
/// off as much as is left, or more, ends the countdown at once, finished, and
/// reports that end exactly once, running or paused, on either clock.
@Suite("append with a negative amount takes time off")
struct TakeOffTests {
    @Test("taking off exactly what is left ends a running countdown at once, finished")
    func exactlyWhatIsLeft() throws {
        let h = Harness()
        let key = h.start(10, every: 1)
        h.advance(to: 4)
        #expect(h.scheduler.append(key, s(-6)))
        #expect(h.recorder.ends(key).map(\.kind) == [.end(.finished)])
        #expect(h.recorder.ends(key).first?.remaining == 0)
        // The length keeps what elapsed: progress reads 1 at the end, not more.
        #expect(h.recorder.ends(key).first?.total == s(4))
        try h.runAll()
        #expect(h.recorder.ends(key).count == 1)
        #expect(h.scheduler.activeCount == 0)
    }

    @Test("taking off less than is left shortens a paused countdown and it stays paused")
    func pausedShortened() {
        let h = Harness()
        let key = h.start(10, every: 1)
        h.advance(to: 2)
        h.scheduler.pause(key)
        #expect(h.scheduler.append(key, s(-5)))
        #expect(h.scheduler.state(key) == .paused)
        #expect(h.scheduler.remaining(key) == s(3))
        #expect(h.scheduler.total(key) == s(5))
        #expect(h.recorder.ends(key).isEmpty)
    }

    @Test("taking off what is left of a paused countdown ends it at once, finished, once")
    func pausedEnds() throws {
        let h = Harness()
        let key = h.start(10, every: 1)
        h.advance(to: 2)
        h.scheduler.pause(key)
        #expect(h.scheduler.append(key, s(-30)))
        #expect(h.scheduler.state(key) == nil)
        #expect(h.recorder.ends(key).map(\.kind) == [.end(.finished)])
        #expect(h.recorder.ends(key).first?.instant == s(2))
        #expect(!h.scheduler.resume(key))
        h.advance(to: 20)
        #expect(h.recorder.ends(key).count == 1)
    }

    @Test("an end-only countdown with an id ends once and frees its id")
    func endOnlyWithID() throws {
        let h = Harness()
        let key = h.start(5, every: 1, id: "tea", wantsTicks: false)
        h.advance(to: 1)
        h.scheduler.append(key, s(-4))
        #expect(h.recorder.ends(key).map(\.kind) == [.end(.finished)])
        #expect(h.scheduler.key(forID: "tea") == nil)
        try h.runAll()
        #expect(h.recorder.ends(key).count == 1)
    }

    @Test("an at countdown taken past its deadline ends once; one shortened keeps its new wall deadline")
    func wallCountdown() throws {
        let h = Harness()
        let wallNow = h.clock.wallNow()
        let gone = h.start(.wall(wallNow + s(60)), every: 1)
        let kept = h.start(.wall(wallNow + s(60)), every: 1)
        h.advance(to: 10)
        h.scheduler.append(gone, s(-120))
        h.scheduler.append(kept, s(-20))
        #expect(h.recorder.ends(gone).map(\.kind) == [.end(.finished)])
        #expect(h.scheduler.wallDeadline(kept) == wallNow + s(40))
        try h.runAll()
        #expect(h.recorder.ends(gone).count == 1)
        #expect(h.recorder.ends(kept).map(\.instant) == [s(40)])
    }

    @Test("taking off inside the countdown's own tick hook ends it once, after that tick")
    func fromOwnHook() throws {
        let h = Harness()
        let key = h.start(10, every: 1)
        var taken = false
        h.recorder.onTick = { tick in
            if tick.remaining == s(7), !taken {
                taken = true
                h.scheduler.append(key, s(-100))
            }
        }
        try h.runAll()
        #expect(h.recorder.remainings(key) == [s(10), s(9), s(8), s(7)])
        #expect(h.recorder.ends(key).map(\.kind) == [.end(.finished)])
        #expect(h.recorder.ends(key).first?.instant == s(3))
    }
}
