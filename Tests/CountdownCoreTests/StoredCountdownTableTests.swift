import CountdownCore
import Testing

private let s = Time.nanosecondsPerSecond

/// Records that between them set every field to each of its kinds of value.
private func variedRecords(_ n: Int) -> [StoredCountdown] {
    (0..<n).map { i in
        let i64 = Int64(i)
        let state = StoredCountdown.State.allCases[i % 3]
        return StoredCountdown(
            id: i % 5 == 0 ? "a longer id than sixteen bytes, number \(i)" : "cd-\(i)", state: state,
            kind: i % 2 == 0 ? .duration : .wall, wallDeadline: 1_700_000_000 * s + i64,
            pausedRemaining: state == .paused ? (i % 4 == 0 ? -i64 * s : i64 * s) : nil, every: (1 + i64 % 7) * s / 10,
            total: (60 + i64) * s, bootID: i % 4 == 3 ? nil : "boot-\(i % 3)-5f1c2a9e-0b7d-4e1a-9c3f-2d8e6b4a1f00",
            bootDeadline: i % 4 == 3 ? nil : i64 * s + 17, updatedAt: 1_700_000_000 * s - i64, overtime: i % 6 == 1,
            title: i % 7 == 0 ? "tea #\(i) | %" : nil, actions: i % 11 == 0 ? ["bell", "notify-\(i)"] : [])
    }
}

@Suite("A table of stored countdowns keeps every field in a few bytes each")
struct StoredCountdownTableTests {
    @Test("every record put in comes out equal, titles, actions and boot ids included")
    func roundTrip() {
        var table = StoredCountdownTable()
        let records = variedRecords(500)
        for record in records { table[CountdownID(record.id)] = record }
        #expect(table.count == records.count)
        for record in records { #expect(table[CountdownID(record.id)] == record) }
        #expect(table.records.sorted { $0.id.precedesInBytes($1.id) } == records.sorted { $0.id.precedesInBytes($1.id) })
    }

    @Test("a record written again replaces the old one, its title and actions too")
    func replace() {
        var table = StoredCountdownTable()
        let records = variedRecords(30)
        let titled = records[0]
        table["x"] = StoredCountdown(id: "x", state: titled.state, kind: titled.kind, wallDeadline: titled.wallDeadline,
                                     pausedRemaining: titled.pausedRemaining, every: titled.every, total: titled.total,
                                     bootID: titled.bootID, bootDeadline: titled.bootDeadline, updatedAt: titled.updatedAt,
                                     title: "first", actions: ["bell"])
        var plain = records[2]
        plain.id = "x"
        table["x"] = plain
        #expect(table["x"] == plain)
        #expect(table.count == 1)
    }

    @Test("an id that is not there reads nil, and removing a record frees its entry unless it is marked")
    func removeAndMark() {
        var table = StoredCountdownTable()
        let records = variedRecords(4)
        #expect(table["cd-1"] == nil)
        table["cd-1"] = records[1]
        table["cd-2"] = records[2]
        table.mark("cd-2")
        table.mark("cd-3")
        #expect(table.contains("cd-3") && table["cd-3"] == nil)
        #expect(table.count == 2 && table.entryCount == 3)
        table["cd-1"] = nil
        table["cd-2"] = nil
        #expect(!table.contains("cd-1"))
        #expect(table.contains("cd-2") && table["cd-2"] == nil)
        #expect(table.count == 0 && table.entryCount == 2)
        #expect(Set(table.markedIDs) == ["cd-2", "cd-3"])
        // A marked entry given a record again keeps its mark.
        table["cd-2"] = records[2]
        table["cd-2"] = nil
        #expect(table.contains("cd-2"))
    }

    @Test("ids that differ only in normal form are two entries, and two boot ids spelled so stay two")
    func bytesNotCanonicalEquivalence() {
        var table = StoredCountdownTable()
        let composed = "caf\u{E9}", decomposed = "cafe\u{301}"
        var a = variedRecords(1)[0], b = variedRecords(1)[0]
        (a.id, a.bootID) = (composed, composed)
        (b.id, b.bootID) = (decomposed, decomposed)
        table[CountdownID(composed)] = a
        table[CountdownID(decomposed)] = b
        #expect(table.count == 2)
        #expect(table[CountdownID(composed)]?.bootID?.sameBytes(as: composed) == true)
        #expect(table[CountdownID(decomposed)]?.bootID?.sameBytes(as: decomposed) == true)
    }

    @Test("replacing the records keeps the marked entries, without a record unless the new ones have one")
    func replaceRecords() {
        var table = StoredCountdownTable()
        let records = variedRecords(6)
        for record in records { table[CountdownID(record.id)] = record }
        table.mark(CountdownID(records[1].id))
        table.mark(CountdownID(records[2].id))
        table.replaceRecords(with: [CountdownID(records[2].id): records[2], CountdownID(records[4].id): records[4]])
        #expect(table.count == 2)
        #expect(table[CountdownID(records[1].id)] == nil && table.contains(CountdownID(records[1].id)))
        #expect(table[CountdownID(records[2].id)] == records[2])
        #expect(table[CountdownID(records[4].id)] == records[4])
        #expect(!table.contains(CountdownID(records[3].id)))
        #expect(Set(table.markedIDs) == [CountdownID(records[1].id), CountdownID(records[2].id)])
    }

    @Test("after removals in any order, every record left is found and every one removed is not")
    func removalsKeepTheRestFound() {
        var table = StoredCountdownTable()
        let records = variedRecords(3_000)
        for record in records { table[CountdownID(record.id)] = record }
        for (i, record) in records.enumerated() where i % 3 != 1 { table[CountdownID(record.id)] = nil }
        #expect(table.count == records.count / 3)
        for (i, record) in records.enumerated() {
            #expect(table[CountdownID(record.id)] == (i % 3 == 1 ? record : nil), "\(record.id)")
        }
        for (i, record) in records.enumerated() where i % 3 == 0 { table[CountdownID(record.id)] = record }
        for (i, record) in records.enumerated() {
            #expect(table[CountdownID(record.id)] == (i % 3 == 2 ? nil : record), "\(record.id)")
        }
        #expect(table.count == 2 * records.count / 3 && table.entryCount == table.count)
    }

    @Test("rows freed by removed records are taken again: churn does not grow the table")
    func churnReusesRows() {
        var table = StoredCountdownTable()
        let records = variedRecords(1_000)
        for record in records { table[CountdownID(record.id)] = record }
        let bytes = table.storageBytes
        for round in 0..<5 {
            for record in records { table[CountdownID(record.id)] = nil }
            for record in records {
                var again = record
                again.id = "r\(round)-\(record.id)"
                table[CountdownID(again.id)] = again
            }
            for record in records { table[CountdownID("r\(round)-\(record.id)")] = nil }
            for record in records { table[CountdownID(record.id)] = record }
        }
        #expect(table.count == records.count)
        #expect(table.storageBytes <= bytes * 2, "\(table.storageBytes) bytes after churn, \(bytes) before")
    }

    /// The structure that issue 53 cut from a dictionary of whole records (152
    /// bytes a bucket) to an index and a row: if a field or a box comes back,
    /// this fails.
    @Test("a row is at most 56 bytes, and 10,000 records, not reserved, take at most 135 bytes each in the table's storage")
    func structuralBound() {
        #expect(StoredCountdownTable.rowBytes <= 56)
        var table = StoredCountdownTable()
        let n = 10_000
        for i in 0..<n {
            table[CountdownID("s\(i)")] = StoredCountdown(
                id: "s\(i)", state: .running, kind: .duration, wallDeadline: 1_700_000_000 * s + Int64(i), every: s,
                total: 100_000 * s, bootID: "5f1c2a9e-0b7d-4e1a-9c3f-2d8e6b4a1f00", bootDeadline: Int64(i) * s,
                updatedAt: 1_700_000_000 * s)
            table.mark(CountdownID("s\(i)"))
        }
        // Rows and ids grown by doubling, not reserved (16,384 of each here):
        // 118 bytes of the 131. The stores reserve for a read-ahead's count (the
        // bound below).
        let perRecord = Double(table.storageBytes) / Double(n)
        #expect(perRecord <= 135, "\(perRecord) bytes a record")
        // The same records in the dictionary the table replaced, for scale.
        #expect(MemoryLayout<StoredCountdown>.stride + MemoryLayout<CountdownID>.stride > 2 * StoredCountdownTable.rowBytes)
    }

    @Test("reserved for 13,000, each record takes its row, its id once and at most 16 bytes of index")
    func indexKeepsNoSecondID() {
        // 13,000: a `[CountdownID: Int32]` index reserved for as many has 32,768
        // buckets of 20 bytes (50 bytes a record), holding every id a second time;
        // with it this read 37.8 (its `capacity`, 3/4 of its buckets, counted).
        let n = 13_000
        var table = StoredCountdownTable()
        table.reserveCapacity(n)
        for i in 0..<n {
            table[CountdownID("s\(i)")] = StoredCountdown(
                id: "s\(i)", state: .running, kind: .duration, wallDeadline: 1_700_000_000 * s + Int64(i), every: s,
                total: 100_000 * s, bootID: "5f1c2a9e-0b7d-4e1a-9c3f-2d8e6b4a1f00", bootDeadline: Int64(i) * s,
                updatedAt: 1_700_000_000 * s)
        }
        #expect(table.count == n)
        let beyondRow = Double(table.storageBytes) / Double(n) - Double(StoredCountdownTable.rowBytes)
        #expect(beyondRow <= Double(MemoryLayout<CountdownID>.stride) + 16, "\(beyondRow) bytes a record beyond its row")
    }
}
