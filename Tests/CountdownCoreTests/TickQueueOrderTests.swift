import CountdownCore
import Testing

@Suite("Events at the same instant fire in start order, whatever queue holds them")
struct TickQueueOrderTests {
    /// Keys of the events at `instant`, in firing order.
    private func keys(at instant: Nanoseconds, in h: Harness) -> [CountdownKey] {
        h.events.filter { $0.instant == instant }.map(\.key)
    }

    @Test("ticks at the same instant fire in start order across different intervals")
    func acrossIntervals() throws {
        let h = Harness()
        let a = h.start(4, every: 1)
        let b = h.start(4, every: 0.5)
        let c = h.start(4, every: 1)
        let d = h.start(4, every: 0.25)
        try h.runAll()
        for t in [1.0, 2, 3] {
            #expect(keys(at: s(t), in: h) == [a, b, c, d], "at \(t) s")
        }
        #expect(keys(at: s(0.5), in: h) == [b, d])
        #expect(keys(at: s(4), in: h) == [a, b, c, d])
        #expect(h.events.filter { $0.instant == s(4) }.allSatisfy { $0.isEnd })
    }

    @Test("start order wins when the earlier countdown's tick waits in the heap and the later one's in a FIFO")
    func heapBeforeFIFO() {
        let h = Harness()
        let a = h.start(10, every: 1)
        let b = h.start(10, every: 1)
        h.advance(to: 0.5)
        h.scheduler.pause(a)
        h.scheduler.resume(a) // a's next tick is now a first-after-resume tick
        h.advance(to: 3)
        for t in [1.0, 2, 3] { #expect(keys(at: s(t), in: h) == [a, b]) }
    }

    @Test("start order wins when the later countdown's tick waits in the heap and the earlier one's in a FIFO")
    func fifoBeforeHeap() {
        let h = Harness()
        let a = h.start(10, every: 1)
        let b = h.start(10, every: 1)
        h.advance(to: 0.5)
        h.scheduler.pause(b)
        h.scheduler.resume(b)
        h.advance(to: 3)
        for t in [1.0, 2, 3] { #expect(keys(at: s(t), in: h) == [a, b]) }
    }

    @Test("first ticks after start (unaligned durations) interleave with FIFO ticks in start order")
    func unalignedStarts() {
        let h = Harness()
        let a = h.start(10, every: 1)      // FIFO: 1, 2, 3, ...
        let b = h.start(2.5, every: 0.5)   // 2.5 is a multiple of 0.5: FIFO
        let c = h.start(3.3, every: 1)     // first tick at 0.3, then 1.3, 2.3
        let d = h.start(1.7, every: 0.25)  // first queued tick at 0.2
        h.advance(to: 3)
        #expect(keys(at: s(1), in: h) == [a, b])
        #expect(keys(at: s(1.3), in: h) == [c])
        #expect(keys(at: s(1.7), in: h) == [d])
        #expect(keys(at: s(2.5), in: h) == [b])
        #expect(h.recorder.instants(c) == [0, s(0.3), s(1.3), s(2.3)])
        #expect(h.recorder.instants(d).dropFirst().first == s(0.2))
    }

    @Test("ends and ticks at the same instant fire in start order")
    func endsAndTicksTogether() throws {
        let h = Harness()
        let a = h.start(2, every: 1)
        let b = h.start(5, every: 1)
        let c = h.start(2, every: 0.5)
        let d = h.start(5, every: 0.5)
        try h.runAll()
        let atTwo = h.events.filter { $0.instant == s(2) }
        #expect(atTwo.map(\.key) == [a, b, c, d])
        #expect(atTwo.map(\.kind) == [.end(.finished), .tick, .end(.finished), .tick])
    }

    @Test("a countdown started later never overtakes an earlier one at a shared instant")
    func laterStartsComeAfter() throws {
        let h = Harness()
        let early = h.start(5, every: 1)
        h.advance(to: 0.5)
        let late = h.start(2.5, every: 0.5) // ticks at 1, 1.5, 2, 2.5; ends at 3
        h.advance(to: 1.25)
        let later = h.start(1.75, every: 0.25) // ticks at 1.5, 1.75, ... ends at 3
        try h.runAll()
        #expect(keys(at: s(2), in: h) == [early, late, later])
        #expect(keys(at: s(3), in: h) == [early, late, later])
    }

    @Test("after a countdown ends, a new one reusing its slot still fires after older countdowns")
    func reusedSlotKeepsStartOrder() throws {
        let h = Harness()
        let first = h.start(1, every: 1)
        let older = h.start(5, every: 1)
        h.advance(to: 1)
        let reused = h.start(3, every: 1)
        #expect(reused.slot == first.slot)
        try h.runAll()
        for t in [2.0, 3, 4] { #expect(keys(at: s(t), in: h) == [older, reused]) }
    }

    @Test("after a catch-up, ticks of several countdowns at the same instant are still in start order")
    func orderAfterCatchUp() throws {
        let h = Harness()
        let a = h.start(20, every: 1)
        let b = h.start(20, every: 0.5)
        let c = h.start(20, every: 2)
        h.stall(for: 4.3)
        #expect(keys(at: s(4.3), in: h) == [a, b, c])
        h.advance(to: 8)
        for t in [6.0, 8] { #expect(keys(at: s(t), in: h) == [a, b, c]) }
        #expect(keys(at: s(5), in: h) == [a, b])
        #expect(keys(at: s(7), in: h) == [a, b])
    }
}
