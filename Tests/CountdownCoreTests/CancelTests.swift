import CountdownCore
import Testing

@Suite("cancel ends a countdown exactly once, with its true remaining time")
struct CancelTests {
    @Test("cancel reports end(.cancelled) once with the remaining time at that moment")
    func cancelBetweenTicks() {
        let h = Harness()
        let key = h.start(3, every: 1)
        h.advance(to: 1.3)
        h.recorder.clear()
        #expect(h.scheduler.cancel(key))
        #expect(h.events == [Event(kind: .end(.cancelled), key: key, instant: s(1.3), remaining: s(1.7),
                                   total: s(3), missed: 0, depth: 0)])
        #expect(h.scheduler.state(key) == nil)
        #expect(h.scheduler.remaining(key) == nil)
        #expect(h.scheduler.activeCount == 0)
        h.advance(to: 10)
        #expect(h.events.count == 1, "no tick and no second end after cancel")
    }

    @Test("cancel(reason: .stopped) ends with .stopped, once")
    func stopped() {
        let h = Harness()
        let key = h.start(3, every: 1)
        h.advance(to: 0.25)
        #expect(h.scheduler.cancel(key, reason: .stopped))
        #expect(h.recorder.ends(key).map(\.kind) == [.end(.stopped)])
        #expect(h.recorder.ends(key).first?.remaining == s(2.75))
        #expect(!h.scheduler.cancel(key, reason: .stopped))
        #expect(h.recorder.endCount == 1)
    }

    @Test("cancel on an ended countdown returns false and reports nothing")
    func cancelAfterFinish() throws {
        let h = Harness()
        let key = h.start(2, every: 1)
        try h.runAll()
        #expect(!h.scheduler.cancel(key))
        #expect(h.recorder.ends(key).map(\.kind) == [.end(.finished)])
    }

    @Test("cancelling twice returns false the second time")
    func cancelTwice() {
        let h = Harness()
        let key = h.start(2, every: 1)
        #expect(h.scheduler.cancel(key))
        #expect(!h.scheduler.cancel(key))
        #expect(h.recorder.ends(key).count == 1)
    }

    @Test("cancelling a paused countdown reports its frozen remaining time")
    func cancelPaused() {
        let h = Harness()
        let key = h.start(10, every: 1)
        h.advance(to: 4.4)
        h.scheduler.pause(key)
        h.advance(to: 9)
        h.scheduler.cancel(key)
        #expect(h.recorder.ends(key).first?.remaining == s(5.6))
        #expect(h.recorder.ends(key).first?.instant == s(9))
    }

    @Test("cancelling a countdown that was started but never announced reports its full duration")
    func cancelUnannounced() {
        let h = Harness()
        let key = h.scheduler.start(CountdownSpec(deadline: .after(s(4))))
        h.scheduler.cancel(key)
        #expect(h.events.map(\.kind) == [.end(.cancelled)])
        #expect(h.events.first?.remaining == s(4))
    }

    @Test("cancelAll cancels every active countdown in start order, slots reused or not")
    func cancelAllInStartOrder() {
        let h = Harness()
        let a = h.start(5)
        let b = h.start(6)
        let c = h.start(7)
        h.scheduler.cancel(a)
        let d = h.start(8) // reuses a's slot
        #expect(d.slot == a.slot)
        let paused = h.start(9)
        h.scheduler.pause(paused)
        h.recorder.clear()
        h.scheduler.cancelAll()
        #expect(h.events.map(\.key) == [b, c, d, paused])
        #expect(h.events.allSatisfy { $0.kind == .end(.cancelled) })
        #expect(h.scheduler.activeCount == 0)
        #expect(h.scheduler.activeKeys.isEmpty)
    }

    @Test("a key whose countdown ended never matches the countdown that reuses its slot")
    func staleKeys() {
        let h = Harness()
        let old = h.start(5)
        h.scheduler.cancel(old)
        let new = h.start(5)
        #expect(new.slot == old.slot)
        #expect(new != old)
        #expect(!h.scheduler.cancel(old))
        #expect(!h.scheduler.append(old, s(1)))
        #expect(!h.scheduler.pause(old))
        #expect(h.scheduler.remaining(old) == nil)
        #expect(h.scheduler.state(new) == .running)
    }

    @Test("activeKeys lists running and paused countdowns in start order")
    func activeKeysOrder() {
        let h = Harness()
        let a = h.start(5)
        let b = h.start(5)
        let c = h.start(5)
        h.scheduler.pause(b)
        h.scheduler.cancel(a)
        let d = h.start(5)
        #expect(h.scheduler.activeKeys == [b, c, d])
        #expect(h.scheduler.activeCount == 3)
    }
}
