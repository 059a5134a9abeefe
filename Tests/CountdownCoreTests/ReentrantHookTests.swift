import CountdownCore
import Testing

@Suite("Hooks may change countdowns while ticks are being dispatched")
struct ReentrantHookTests {
    @Test("cancelling its own countdown inside its tick: end(.cancelled) nested in the tick, no further ticks")
    func cancelSelfInTick() {
        let h = Harness()
        h.recorder.onTick = { tick in
            if tick.remaining == s(3) { h.scheduler.cancel(tick.key) }
        }
        let key = h.start(5, every: 1)
        h.advance(to: 100)
        #expect(h.recorder.remainings(key) == [s(5), s(4), s(3)])
        let ends = h.recorder.ends(key)
        #expect(ends.count == 1)
        #expect(ends.first == Event(kind: .end(.cancelled), key: key, instant: s(2), remaining: s(3),
                                    total: s(5), missed: 0, depth: 1))
        #expect(h.scheduler.nextDue() == nil)
    }

    @Test("a countdown started inside a hook fires its first tick at once, nested; later ticks in order")
    func startInsideHook() throws {
        let h = Harness()
        var b: CountdownKey?
        var started = false
        h.recorder.onTick = { tick in
            if !started && tick.remaining == s(2) {
                started = true
                b = h.start(2, every: 1)
            }
        }
        let a = h.start(3, every: 1)
        try h.runAll()
        let bKey = try #require(b)
        let expected: [(CountdownKey, Event.Kind, Double, Double, Int)] = [
            (a, .tick, 0, 3, 0),
            (a, .tick, 1, 2, 0),
            (bKey, .tick, 1, 2, 1), // nested inside a's hook
            (a, .tick, 2, 1, 0),
            (bKey, .tick, 2, 1, 0),
            (a, .end(.finished), 3, 0, 0),
            (bKey, .end(.finished), 3, 0, 0),
        ]
        #expect(h.events.map(\.key) == expected.map(\.0))
        #expect(h.events.map(\.kind) == expected.map(\.1))
        #expect(h.events.map(\.instant) == expected.map { s($0.2) })
        #expect(h.events.map(\.remaining) == expected.map { s($0.3) })
        #expect(h.events.map(\.depth) == expected.map(\.4))
    }

    @Test("pausing another countdown whose tick is due in the same pass suppresses that tick")
    func pauseOtherInSamePass() throws {
        let h = Harness()
        let a = h.start(5, every: 1)
        let b = h.start(5, every: 1)
        h.recorder.onTick = { tick in
            if tick.key == a && tick.remaining == s(3) { h.scheduler.pause(b) }
        }
        h.advance(to: 10)
        #expect(h.recorder.remainings(b) == [s(5), s(4)])
        #expect(h.scheduler.state(b) == .paused)
        #expect(h.scheduler.remaining(b) == s(3))
        h.recorder.onTick = nil
        h.scheduler.resume(b)
        try h.runAll()
        #expect(h.recorder.remainings(b) == [s(5), s(4), s(2), s(1)])
        #expect(h.recorder.ends(b).map(\.instant) == [s(13)])
    }

    @Test("appending a fraction to another countdown inside a hook re-phases its tick due in the same pass")
    func appendOtherFraction() throws {
        let h = Harness()
        let a = h.start(5, every: 1)
        let b = h.start(5, every: 1)
        h.recorder.onTick = { tick in
            if tick.key == a && tick.remaining == s(3) { h.scheduler.append(b, s(0.5)) }
        }
        try h.runAll()
        #expect(h.recorder.remainings(b) == [s(5), s(4), s(3), s(2), s(1)])
        #expect(h.recorder.instants(b) == [0, s(1), s(2.5), s(3.5), s(4.5)])
        #expect(h.recorder.ends(b).map(\.instant) == [s(5.5)])
    }

    @Test("appending whole intervals to another countdown inside a hook keeps its tick in the same pass")
    func appendOtherWhole() throws {
        let h = Harness()
        let a = h.start(5, every: 1)
        let b = h.start(5, every: 1)
        h.recorder.onTick = { tick in
            if tick.key == a && tick.remaining == s(3) { h.scheduler.append(b, s(1)) }
        }
        try h.runAll()
        #expect(h.recorder.remainings(b) == [s(5), s(4), s(4), s(3), s(2), s(1)])
        #expect(h.recorder.instants(b) == [0, s(1), s(2), s(3), s(4), s(5)])
        #expect(h.recorder.ends(b).map(\.instant) == [s(6)])
    }

    @Test("cancelling another countdown inside a hook: its end comes at once, its pending tick never")
    func cancelOther() {
        let h = Harness()
        let a = h.start(5, every: 1)
        let b = h.start(5, every: 1)
        h.recorder.onTick = { tick in
            if tick.key == a && tick.remaining == s(3) { h.scheduler.cancel(b) }
        }
        h.advance(to: 2)
        #expect(h.recorder.remainings(b) == [s(5), s(4)])
        #expect(h.recorder.ends(b).map(\.kind) == [.end(.cancelled)])
        #expect(h.recorder.ends(b).first?.remaining == s(3))
        #expect(h.recorder.ends(b).first?.instant == s(2))
    }

    @Test("resuming another countdown inside a hook continues it on its alignment")
    func resumeOther() throws {
        let h = Harness()
        let a = h.start(5, every: 1)
        let b = h.start(5, every: 1)
        h.advance(to: 1.6)
        h.scheduler.pause(b) // 3.4 s left
        h.recorder.onTick = { tick in
            if tick.key == a && tick.remaining == s(2) { h.scheduler.resume(b) }
        }
        try h.runAll()
        #expect(h.recorder.instants(b) == [0, s(1), s(3.4), s(4.4), s(5.4)])
        #expect(h.recorder.remainings(b) == [s(5), s(4), s(3), s(2), s(1)])
        #expect(h.recorder.ends(b).map(\.instant) == [s(6.4)])
    }

    @Test("a countdown appending to itself in its tick moves its own next tick")
    func appendSelf() throws {
        let h = Harness()
        var appended = false
        h.recorder.onTick = { tick in
            if !appended && tick.remaining == s(2) {
                appended = true
                h.scheduler.append(tick.key, s(0.5))
            }
        }
        let key = h.start(3, every: 1)
        try h.runAll()
        #expect(h.recorder.remainings(key) == [s(3), s(2), s(2), s(1)])
        #expect(h.recorder.instants(key) == [0, s(1), s(1.5), s(2.5)])
        #expect(h.recorder.ends(key).map(\.instant) == [s(3.5)])
    }

    @Test("a pass fires only the ticks due when it starts; ticks queued by hooks wait for a later pass")
    func passFiresOnlyDueTicks() {
        let h = Harness()
        var starts = 0
        h.recorder.onTick = { tick in
            // Every tick at 1 s starts another countdown, whose first tick is due 0.3 s later.
            if tick.instant == s(1) && starts < 50 {
                starts += 1
                h.start(1.3, every: 1)
            }
        }
        h.start(3, every: 1)
        h.recorder.clear()
        #expect(h.scheduler.next(h.clock) == s(1))
        #expect(starts == 50)
        #expect(h.events.allSatisfy { $0.instant == s(1) })
        #expect(h.events.count == 51)
        #expect(h.scheduler.nextDue() == s(1.3))
        #expect(h.now == s(1))
    }

    @Test("a countdown of zero length started inside a hook ends at once, nested")
    func zeroLengthInsideHook() {
        let h = Harness()
        var inner: CountdownKey?
        h.recorder.onTick = { tick in
            if tick.remaining == s(1) { inner = h.start(0) }
        }
        h.start(2, every: 1)
        h.advance(to: 1)
        let key = inner
        #expect(key != nil)
        let innerEvents = h.events.filter { $0.key == key }
        #expect(innerEvents.map(\.kind) == [.end(.finished)])
        #expect(innerEvents.map(\.depth) == [1])
        #expect(innerEvents.map(\.instant) == [s(1)])
    }

    @Test("cancelAll inside a hook ends everything, and nothing else fires in that pass")
    func cancelAllInsideHook() {
        let h = Harness()
        let a = h.start(5, every: 1)
        let b = h.start(5, every: 0.5)
        let c = h.start(5, every: 1)
        h.recorder.onTick = { tick in
            if tick.key == a && tick.remaining == s(3) { h.scheduler.cancelAll() }
        }
        h.advance(to: 10)
        let afterCancel = h.events.drop { !($0.key == a && $0.remaining == s(3)) }
        #expect(afterCancel.map(\.key) == [a, a, b, c])
        #expect(afterCancel.dropFirst().allSatisfy { $0.kind == .end(.cancelled) })
        #expect(h.scheduler.nextDue() == nil)
        #expect(h.scheduler.activeCount == 0)
    }

    @Test("a countdown started in a hook and cancelled in its own nested first tick ends once")
    func nestedSelfCancel() {
        let h = Harness()
        var inner: CountdownKey?
        let outer = h.start(3, every: 1)
        h.recorder.onTick = { tick in
            if tick.key == outer && tick.remaining == s(2) {
                // As a host does: keep the key, then announce.
                let key = h.scheduler.start(CountdownSpec(deadline: .after(s(5))))
                inner = key
                h.scheduler.announce(key)
            } else if tick.key == inner {
                h.scheduler.cancel(tick.key)
            }
        }
        h.advance(to: 10)
        let innerEvents = h.events.filter { $0.key == inner }
        #expect(innerEvents.map(\.kind) == [.tick, .end(.cancelled)])
        #expect(innerEvents.map(\.depth) == [1, 2])
        #expect(innerEvents.last?.remaining == s(5))
        #expect(h.recorder.ends(outer).map(\.kind) == [.end(.finished)])
    }
}
