@testable import CountdownCore
import Testing

@Suite("TickQueue and RingBuffer, the scheduler's internal queues")
struct TickQueueUnitTests {
    @Test("irregular entries come out in (due, seq) order whatever the push order")
    func irregularOrder() {
        var rng = SeededGenerator(seed: 42)
        var queue = TickQueue()
        var pushed: [(due: Nanoseconds, seq: UInt64)] = []
        for seq in 0..<500 as Range<UInt64> {
            let due = Nanoseconds.random(in: 0...50, using: &rng)
            queue.push(TickEntry(due: due, slot: Int32(seq), epoch: 0), seq: seq)
            pushed.append((due, seq))
        }
        var popped: [(due: Nanoseconds, seq: UInt64)] = []
        while let (source, entry) = queue.earliest(seqOf: { UInt64($0) }) {
            #expect(source == .heap || source.orderedRunIndex != nil)
            popped.append((entry.due, UInt64(entry.slot)))
            queue.remove(from: source)
        }
        let expected = pushed.sorted { ($0.due, $0.seq) < ($1.due, $1.seq) }
        #expect(popped.map(\.due) == expected.map(\.due))
        #expect(popped.map(\.seq) == expected.map(\.seq))
        let emptied = queue.isEmpty
        #expect(emptied)
    }

    @Test("irregular entries pushed in (due, seq) order, as after a stall, skip the heap")
    func orderedPushesSkipTheHeap() {
        var queue = TickQueue()
        for seq in 0..<3000 as Range<UInt64> {
            queue.push(TickEntry(due: Nanoseconds(seq / 1000), slot: Int32(seq), epoch: 0), seq: seq)
        }
        // Stragglers start runs of their own, and past a few runs go to the heap;
        // each still comes out in its place.
        for (due, seq) in [(1, 5000), (0, 5001), (0, 4000), (0, 3500)] as [(Nanoseconds, UInt64)] {
            queue.push(TickEntry(due: due, slot: Int32(seq), epoch: 0), seq: seq)
        }
        var sources: [TickSource] = [], slots: [Int32] = []
        while let (source, entry) = queue.earliest(seqOf: { UInt64($0) }) {
            sources.append(source)
            slots.append(entry.slot)
            queue.remove(from: source)
        }
        #expect(sources.filter { $0 == .heap }.count == 1)
        #expect(sources.filter { $0 == .orderedRun(0) }.count == 3000)
        #expect(sources.filter { ($0.orderedRunIndex ?? 0) > 0 }.count == 3)
        #expect(slots == Array(0..<1000) + [3500, 4000, 5001] + Array(1000..<2000) + [5000] + Array(2000..<3000))
    }

    @Test("FIFO lists and the heap merge by due, ties by seq")
    func mergeListsAndHeap() {
        var queue = TickQueue()
        // slot = seq in this test
        queue.pushInOrder(TickEntry(due: 10, slot: 1, epoch: 0), interval: 5)
        queue.pushInOrder(TickEntry(due: 10, slot: 3, epoch: 0), interval: 5)
        queue.pushInOrder(TickEntry(due: 10, slot: 2, epoch: 0), interval: 7)
        queue.push(TickEntry(due: 10, slot: 0, epoch: 0), seq: 0)
        queue.push(TickEntry(due: 9, slot: 4, epoch: 0), seq: 4)
        queue.pushInOrder(TickEntry(due: 15, slot: 1, epoch: 0), interval: 5)
        let queued = queue.count
        #expect(queued == 6)
        var order: [Int32] = []
        while let (source, entry) = queue.earliest(seqOf: { UInt64($0) }) {
            order.append(entry.slot)
            queue.remove(from: source)
        }
        #expect(order == [4, 0, 1, 2, 3, 1])
        let (emptied, left) = (queue.isEmpty, queue.count)
        #expect(emptied)
        #expect(left == 0)
    }

    @Test("removeAll empties every list and the heap")
    func removeAll() {
        var queue = TickQueue()
        queue.pushInOrder(TickEntry(due: 1, slot: 0, epoch: 0), interval: 1)
        queue.push(TickEntry(due: 2, slot: 1, epoch: 0), seq: 1)
        queue.removeAll()
        let (emptied, none) = (queue.isEmpty, queue.earliest(seqOf: { UInt64($0) }))
        #expect(emptied)
        #expect(none == nil)
        queue.pushInOrder(TickEntry(due: 3, slot: 0, epoch: 0), interval: 1)
        let next = queue.earliest(seqOf: { UInt64($0) })
        #expect(next?.entry.due == 3)
    }

    @Test("RingBuffer is FIFO across wrap-around and growth")
    func ringBuffer() {
        var ring = RingBuffer<Int>(capacity: 1)
        let (emptyAtFirst, firstAtFirst) = (ring.isEmpty, ring.first)
        #expect(emptyAtFirst)
        #expect(firstAtFirst == nil)
        var model: [Int] = []
        var next = 0
        var rng = SeededGenerator(seed: 3)
        for _ in 0..<5000 {
            if model.isEmpty || Int.random(in: 0..<3, using: &rng) > 0 {
                ring.append(next); model.append(next); next += 1
            } else {
                let removed = ring.removeFirst()
                #expect(removed == model.removeFirst())
            }
            let (count, first) = (ring.count, ring.first)
            #expect(count == model.count)
            #expect(first == model.first)
        }
        while !model.isEmpty {
            let removed = ring.removeFirst()
            #expect(removed == model.removeFirst())
        }
        let drained = ring.isEmpty
        #expect(drained)
        ring.append(1)
        ring.removeAll()
        let cleared = ring.isEmpty
        #expect(cleared)
        ring.append(2)
        let first = ring.first
        #expect(first == 2)
    }
}
