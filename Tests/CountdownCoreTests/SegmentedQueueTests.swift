@testable import CountdownCore
import Testing

/// The FIFO of the tick queue's ordered runs: segments that never move.
@Suite("SegmentedQueue: a FIFO in segments")
struct SegmentedQueueTests {
    @Test("random appends and removals across many segments give back what a plain array would, in order")
    func matchesAnArray() {
        var queue = SegmentedQueue<UInt64>()
        var model: [UInt64] = []
        var modelHead = 0
        var rng = SeededGenerator(seed: 17)
        var next: UInt64 = 0
        let capacity = SegmentedQueue<UInt64>.segmentCapacity
        for round in 0..<60 {
            // Bursts longer than a segment, then drains that sometimes empty the queue.
            let appends = Int(rng.next() % UInt64(3 * capacity))
            for _ in 0..<appends {
                queue.append(next)
                model.append(next)
                next += 1
            }
            let removals = round % 5 == 4 ? model.count - modelHead : Int(rng.next() % UInt64(model.count - modelHead + 1))
            for _ in 0..<removals {
                let first = queue.first
                let removed = queue.removeFirst()
                #expect(first == model[modelHead] && removed == model[modelHead])
                modelHead += 1
            }
            let (count, isEmpty, first) = (queue.count, queue.isEmpty, queue.first)
            #expect(count == model.count - modelHead)
            #expect(isEmpty == (count == 0))
            #expect(first == (modelHead < model.count ? model[modelHead] : nil))
        }
    }

    @Test("a drained queue keeps at most a segment and a spare, and so does removeAll")
    func givesMemoryBack() {
        var queue = SegmentedQueue<UInt64>()
        let segmentBytes = SegmentedQueue<UInt64>.segmentCapacity * 8
        for i in 0..<100_000 { queue.append(UInt64(i)) }
        let full = queue.capacityBytes
        #expect(full >= 100_000 * 8)
        for _ in 0..<100_000 { queue.removeFirst() }
        let emptied = queue.isEmpty
        #expect(emptied)
        let drained = queue.capacityBytes
        #expect(drained <= 2 * segmentBytes + 4_096)
        // Filling and draining again around the same point allocates nothing more.
        for round in 0..<3 {
            for i in 0..<(segmentBytes / 8 + 10) { queue.append(UInt64(round * 10_000 + i)) }
            let first = queue.first
            #expect(first == UInt64(round * 10_000))
            while !queue.isEmpty { queue.removeFirst() }
            let bytes = queue.capacityBytes
            #expect(bytes <= drained)
        }
        for i in 0..<50_000 { queue.append(UInt64(i)) }
        queue.removeAll()
        let (clearedEmpty, clearedFirst, clearedBytes) = (queue.isEmpty, queue.first, queue.capacityBytes)
        #expect(clearedEmpty && clearedFirst == nil)
        #expect(clearedBytes <= 2 * segmentBytes + 4_096)
        queue.append(7)
        let seven = queue.removeFirst()
        #expect(seven == 7)
    }
}
