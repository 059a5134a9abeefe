import CountdownCore
@testable import RedisStore
import Testing

@Suite("The queue of changes waiting for Redis")
struct PendingChangesTests {
    func change(_ id: String, total: Int64, sequence: Int? = nil) -> PendingChange {
        let record = StoredCountdown(id: id, state: .running, kind: .duration, wallDeadline: total, every: 1,
                                     total: total, bootID: nil, bootDeadline: nil, updatedAt: 0)
        return PendingChange(id: id, before: nil, after: record, instant: 0, unconditional: false, sequence: sequence)
    }

    @Test("changes to one countdown merge (first before, last after); a change whose reply was lost stays apart; order is kept")
    func merging() {
        var queue = PendingChanges()
        queue.append(change("a", total: 1))
        queue.append(change("b", total: 1))
        queue.append(change("a", total: 2))
        queue.append(change("a", total: 3, sequence: 7))
        queue.append(change("a", total: 4))
        #expect(queue.entryCount == 4 && queue.changeCount == 5)
        var drained: [(String, Int64?, Int)] = []
        while let first = queue.first {
            drained.append((first.id, first.after?.total, first.count))
            queue.removeFirst()
        }
        #expect(drained.count == 4)
        #expect(drained[0].0 == "a" && drained[0].1 == 2 && drained[0].2 == 2)
        #expect(drained[1].0 == "b")
        #expect(drained[2].0 == "a" && drained[2].1 == 3 && drained[2].2 == 1, "the lost reply's change")
        #expect(drained[3].0 == "a" && drained[3].1 == 4)
        #expect(queue.isEmpty && queue.changeCount == 0)
    }

    @Test("numbering before a replay: entries without a number get growing ones in queue order, up to the limit; a numbered entry takes no later change")
    func numbering() {
        var queue = PendingChanges()
        queue.append(change("a", total: 1, sequence: 5))
        queue.append(change("b", total: 1))
        queue.append(change("c", total: 1))
        queue.append(change("d", total: 1))
        var next = 10
        let numbered = queue.number(upTo: 3, writer: "w") { next += 1; return next }
        #expect(numbered.map(\.id) == ["b", "c"], "the first three entries; 'a' kept its own number")
        #expect(numbered.map(\.sequence) == [11, 12] && numbered.allSatisfy { $0.writer == "w" })
        // 'b' may be on the server once sent: a later change to it is an entry of its own.
        #expect(!queue.merges(change("b", total: 2)))
        queue.append(change("b", total: 2))
        // 'd' was past the limit: it still merges.
        #expect(queue.merges(change("d", total: 2)))
        queue.append(change("d", total: 2))
        #expect(queue.entryCount == 5 && queue.changeCount == 6)
        var drained: [(String, Int?)] = []
        while let first = queue.first {
            drained.append((first.id, first.sequence))
            queue.removeFirst()
        }
        #expect(drained.map(\.0) == ["a", "b", "c", "d", "b"])
        #expect(drained.map(\.1) == [5, 11, 12, nil, nil])
    }

    @Test("draining from the head stays linear and keeps merging right across compactions")
    func compaction() {
        var queue = PendingChanges()
        for i in 0..<3000 { queue.append(change("c\(i)", total: 1)) }
        for _ in 0..<2000 { queue.removeFirst() }
        // c2500 is still queued: this change merges into its entry.
        queue.append(change("c2500", total: 9))
        queue.append(change("c10", total: 5))
        #expect(queue.entryCount == 1001 && queue.changeCount == 1002)
        var seen: [String: Int64] = [:]
        while let first = queue.first {
            seen[first.id] = first.after?.total
            queue.removeFirst()
        }
        #expect(seen["c2500"] == 9 && seen["c10"] == 5 && seen["c2999"] == 1)
        #expect(seen.count == 1001)
    }
}
