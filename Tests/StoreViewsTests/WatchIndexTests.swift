import CountdownCore
import Testing
@testable import StoreViews

private let s = Time.nanosecondsPerSecond
private let now = StoreInstant(boot: 100 * s, wall: 1_000_000 * s, bootID: "A")

/// `seconds` left at `now`, on the wall clock.
private func record(_ id: String, seconds: Int64 = 3600, state: StoredCountdown.State = .running) -> StoredCountdown {
    StoredCountdown(id: id, state: state, kind: .duration, wallDeadline: (1_000_000 + seconds) * s,
                    pausedRemaining: state == .paused ? seconds * s : nil, every: s, total: seconds * s,
                    bootID: nil, bootDeadline: nil, updatedAt: 1_000_000 * s)
}

private func id(_ i: Int) -> CountdownID {
    let digits = String(i)
    return CountdownID("c" + String(repeating: "0", count: 6 - digits.count) + digits)
}

/// One pass over `count` ids in batches of 1,000, keeping the records of `shown` alone, as a watch does.
private func pass(_ index: inout WatchIndex, count: Int, shown: Set<CountdownID>, skipping: Set<Int> = []) -> [CountdownID] {
    index.beginPass()
    for start in stride(from: 0, to: count, by: 1000) {
        let batch = (start..<min(start + 1000, count)).filter { !skipping.contains($0) }.map { record(id($0).string) }
        for r in batch {
            index.update(CountdownID(r.id), .stored(r), at: now, keepRecord: shown.contains(CountdownID(r.id)))
        }
    }
    return index.endPass()
}

@Suite("A watch keeps a summary of every id and the records of the rows shown alone")
struct WatchIndexTests {
    @Test("a pass over 100,000 countdowns with 22 rows shown keeps 22 records at most, and every id in order")
    func passKeepsShownRecordsOnly() {
        var index = WatchIndex()
        let shown = (0..<22).map(id)
        let gone = pass(&index, count: 100_000, shown: Set(shown))
        #expect(gone.isEmpty)
        #expect(index.count == 100_000)
        #expect(index.order == (0..<100_000).map(id))
        #expect(index.peakRecordsHeld == 22)
        #expect(index.recordsHeld == 22)
        #expect(index.missingRecords(of: shown).isEmpty)
        #expect(index.entry(id(3)) == .stored(record(id(3).string)))
        // Off the page: known, its record not kept.
        #expect(index.summary(id(500))?.status == .stored)
        #expect(index.entry(id(500)) == nil)
    }

    @Test("moving the page asks for the records of the new rows alone, and lets the old ones go")
    func pageMoveReadsItsRowsOnly() {
        var index = WatchIndex()
        let first = (0..<22).map(id)
        _ = pass(&index, count: 10_000, shown: Set(first))
        let next = (22..<44).map(id)
        index.keepRecords(of: next)
        #expect(index.recordsHeld == 0)
        let missing = index.missingRecords(of: next)
        #expect(missing == next)
        for i in missing { index.update(i, .stored(record(i.string)), at: now, keepRecord: true) }
        #expect(index.recordsHeld == 22)
        #expect(index.peakRecordsHeld == 22)
        // A page partly overlapping the one shown reads only the rows it lacks.
        let overlapping = (30..<52).map(id)
        index.keepRecords(of: overlapping)
        #expect(index.missingRecords(of: overlapping) == (44..<52).map(id))
    }

    @Test("a pass names the ids that went; they stay in order, shown as removed")
    func passNamesWhatWent() {
        var index = WatchIndex()
        _ = pass(&index, count: 3000, shown: [])
        let gone = pass(&index, count: 3000, shown: [], skipping: [0, 1500, 2999])
        #expect(gone == [id(0), id(1500), id(2999)])
        for g in gone { index.update(g, .removed, at: now, keepRecord: false) }
        #expect(index.count == 3000)
        #expect(index.entry(id(1500)) == .removed)
        // Removed ones are not named again by the next pass.
        #expect(pass(&index, count: 3000, shown: [], skipping: [0, 1500, 2999]).isEmpty)
    }

    @Test("a pass given an id twice, or out of order, still ends with each id once, in order")
    func passOutOfOrder() {
        var index = WatchIndex()
        _ = pass(&index, count: 10, shown: [])
        index.beginPass()
        for i in [0, 1, 20, 2, 2, 15, 30] { index.update(id(i), .stored(record(id(i).string)), at: now, keepRecord: false) }
        _ = index.endPass()
        #expect(index.order == ((0..<10).map(id) + [id(15), id(20), id(30)]))
    }

    @Test("a change is told from the same record read again, without keeping the record")
    func changeIsTold() {
        var index = WatchIndex()
        let r = record("a")
        let first = index.update("a", .stored(r), at: now, keepRecord: false)
        #expect(first.changed && first.added)
        let again = index.update("a", .stored(r), at: now, keepRecord: false)
        #expect(!again.changed && !again.added)
        var appended = r
        appended.wallDeadline += 60 * s
        let moved = index.update("a", .stored(appended), at: now, keepRecord: false)
        #expect(moved.changed && !moved.added)
        let bad = index.update("a", .unreadable, at: now, keepRecord: false)
        #expect(bad.changed)
        #expect(index.recordsHeld == 0 && index.peakRecordsHeld == 0)
    }

    @Test("whether any still runs is known from the summaries: running until its end, paused or finished not")
    func anyRunning() {
        var index = WatchIndex()
        index.update("p", .stored(record("p", seconds: 60, state: .paused)), at: now, keepRecord: false)
        #expect(!index.anyRunning(at: now.boot))
        index.update("r", .stored(record("r", seconds: 60)), at: now, keepRecord: false)
        #expect(index.anyRunning(at: now.boot + 59 * s))
        #expect(!index.anyRunning(at: now.boot + 60 * s))
        var overtime = record("o", seconds: 1)
        overtime.overtime = true
        index.update("o", .stored(overtime), at: now, keepRecord: false)
        #expect(index.anyRunning(at: now.boot + 3600 * s))
    }
}
