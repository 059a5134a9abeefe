import CountdownCore
import Testing

@Suite("Starting an id that is active replaces the countdown running under it")
struct ReplacementByIDTests {
    @Test("the old countdown ends with .replaced and its true remaining; no tick")
    func oldEndsReplaced() {
        let h = Harness()
        let old = h.start(10, every: 1, id: "tea")
        h.advance(to: 2.5)
        h.recorder.clear()
        let new = h.start(4, every: 1, id: "tea")
        #expect(h.events.count == 2)
        #expect(h.events.first == Event(kind: .end(.replaced), key: old, instant: s(2.5), remaining: s(7.5),
                                        total: s(10), missed: 0, depth: 0))
        #expect(h.events.last?.key == new)
        #expect(h.events.last?.isTick == true)
        #expect(h.scheduler.key(forID: "tea") == new)
        #expect(h.scheduler.state(old) == nil)
        #expect(h.scheduler.id(new) == "tea")
        #expect(h.scheduler.activeCount == 1)
    }

    @Test("the replaced countdown's queued ticks never fire")
    func oldTicksGone() throws {
        let h = Harness()
        let old = h.start(10, every: 1, id: "x")
        h.advance(to: 1.5)
        let new = h.start(3, every: 1, id: "x")
        try h.runAll()
        #expect(h.recorder.ticks(old).count == 2)
        #expect(h.recorder.ends(old).map(\.kind) == [.end(.replaced)])
        #expect(h.recorder.remainings(new) == [s(3), s(2), s(1)])
        #expect(h.recorder.ends(new).map(\.instant) == [s(4.5)])
        #expect(h.scheduler.key(forID: "x") == nil)
    }

    @Test("replacing a paused countdown reports its frozen remaining")
    func replacePaused() {
        let h = Harness()
        let old = h.start(10, every: 1, id: "p")
        h.advance(to: 3.2)
        h.scheduler.pause(old)
        h.advance(to: 8)
        h.start(1, id: "p")
        #expect(h.recorder.ends(old).first?.kind == .end(.replaced))
        #expect(h.recorder.ends(old).first?.remaining == s(6.8))
    }

    @Test("an id whose countdown has ended is free: starting it again replaces nothing")
    func endedIDIsFree() throws {
        let h = Harness()
        let first = h.start(1, id: "egg")
        try h.runAll()
        #expect(h.scheduler.key(forID: "egg") == nil)
        let second = h.start(1, id: "egg")
        #expect(h.recorder.ends(first).map(\.kind) == [.end(.finished)])
        #expect(h.scheduler.key(forID: "egg") == second)
        #expect(!h.events.contains { $0.kind == .end(.replaced) })
    }

    @Test("different ids do not replace each other; no id never replaces")
    func distinctIDs() {
        let h = Harness()
        let a = h.start(5, id: "a")
        let b = h.start(5, id: "b")
        let c = h.start(5)
        let d = h.start(5)
        #expect(h.scheduler.activeKeys == [a, b, c, d])
        #expect(h.recorder.endCount == 0)
        #expect(h.scheduler.key(forID: "a") == a)
        #expect(h.scheduler.key(forID: "b") == b)
    }

    @Test("cancelling under an id frees the id")
    func cancelFreesID() {
        let h = Harness()
        let key = h.start(5, id: "z")
        h.scheduler.cancel(key)
        #expect(h.scheduler.key(forID: "z") == nil)
        #expect(h.scheduler.id(key) == nil)
    }

    @Test("a countdown restarting itself by id from its own tick hook replaces itself cleanly")
    func restartFromOwnTick() throws {
        let h = Harness()
        var restarted = false
        h.recorder.onTick = { tick in
            if !restarted && tick.remaining == s(2) {
                restarted = true
                h.start(2, every: 1, id: "loop")
            }
        }
        let first = h.start(3, every: 1, id: "loop")
        try h.runAll()
        let second = try #require(h.events.first { $0.key != first }?.key)
        #expect(h.recorder.remainings(first) == [s(3), s(2)])
        #expect(h.recorder.ends(first).map(\.kind) == [.end(.replaced)])
        #expect(h.recorder.ends(first).first?.depth == 1)
        #expect(h.recorder.remainings(second) == [s(2), s(1)])
        #expect(h.recorder.ends(second).map(\.instant) == [s(3)])
        #expect(h.recorder.endCount == 2)
    }
}
