import CommandEnding
import CountdownCore
import SQLiteStore
import Testing
@testable import StoreViews

private let s = Time.nanosecondsPerSecond

/// A SQLite store in a folder of its own, as `--state-dir` names one.
private func sqliteStore(in folder: TemporaryFolder) -> SQLiteSharedStore {
    SQLiteSharedStore(StoreLocation(stateDir: folder.path, store: nil).sqliteStore())
}

/// A countdown that ended `secondsAgo` ago (on the wall clock), or ends in `-secondsAgo`.
private func wallCountdown(_ id: String, endedSecondsAgo secondsAgo: Int64, at now: StoreInstant) -> StoredCountdown {
    StoredCountdown(id: id, state: .running, kind: .duration, wallDeadline: now.wall - secondsAgo * s,
                    every: s, total: 60 * s, bootID: nil, bootDeadline: nil, updatedAt: now.wall)
}

@Suite struct SharedStoreTests {
    @Test func aStateFolderThatHoldsNoStoreIsNotCreatedByOpeningOrGlancingAtIt() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = sqliteStore(in: folder)
        #expect(!store.exists)
        #expect(try StoreLocation(stateDir: folder.path).open() is SQLiteSharedStore)
        #expect(!store.exists)
    }

    @Test func aGlanceAtTheListingReadsWhatWasStoredInIdOrder() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = sqliteStore(in: folder)
        let now = try store.now()
        for id in ["b", "a", "c"] { try store.persistence.save(wallCountdown(id, endedSecondsAgo: -60, at: now)) }
        #expect(try store.glanceListing().countdowns.map(\.id) == ["a", "b", "c"])
    }

    @Test func aGlanceAtIdsGivesEachIdItsRecordOrNothingInTheOrderAsked() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = sqliteStore(in: folder)
        let now = try store.now()
        try store.persistence.save(wallCountdown("tea", endedSecondsAgo: -60, at: now))
        let found = try store.glanceEach(ids: ["nope", "tea"])
        #expect(found.map(\.id) == ["nope", "tea"])
        #expect(try found[0].record.get() == nil)
        #expect(try found[1].record.get()?.id == "tea")
    }

    @Test func clearRemovesTheFinishedCountdownsAndKeepsTheOthers() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = sqliteStore(in: folder)
        let now = try store.now()
        try store.persistence.save(wallCountdown("done", endedSecondsAgo: 5, at: now))
        try store.persistence.save(wallCountdown("running", endedSecondsAgo: -60, at: now))
        let (finished, unreadable) = try store.clear(at: now)
        #expect(finished == ["done"])
        #expect(unreadable.isEmpty)
        #expect(try store.persistence.list().map(\.id) == ["running"])
    }

    @Test func clearSaysWhatItRemovedInOneLine() throws {
        let store = MemorySharedStore()
        let now = try store.now()
        try store.memory.save(wallCountdown("a\u{1B}", endedSecondsAgo: 5, at: now))
        try store.memory.save(wallCountdown("b", endedSecondsAgo: 1, at: now))
        var lines: [String] = []
        try StoreRemoval.clear(store) { lines.append($0) }
        #expect(lines == ["removed 2 finished countdowns: a\\e, b"])
    }

    @Test func cancellingAnIdThatIsNotStoredEndsWithExitSeven() throws {
        let store = MemorySharedStore()
        #expect(throws: CommandExit(.unknownCountdown)) { try StoreRemoval.cancel("nope", in: store) { _ in } }
    }

    @Test func cancellingByPatternRemovesOnlyTheMatchingIdsAndCountsThem() throws {
        let store = MemorySharedStore()
        for id in ["exam-1", "exam-2", "tea"] { try store.start(id, seconds: 60) }
        var lines: [String] = []
        try StoreRemoval.cancelAll(matching: try IDPattern("exam-*"), in: store) { lines.append($0) }
        #expect(lines == ["cancelled 2 countdowns"])
        #expect(try store.memory.list().map(\.id) == ["tea"])
    }

    @Test func aPatternThatMatchesNothingEndsWithExitSeven() throws {
        let store = MemorySharedStore()
        try store.start("tea", seconds: 60)
        #expect(throws: CommandExit(.unknownCountdown)) { try StoreRemoval.cancelAll(matching: try IDPattern("x*"), in: store) { _ in } }
    }

    @Test func aChangeSaysWhatTheCountdownIsAfterIt() throws {
        let store = MemorySharedStore()
        try store.start("tea", seconds: 60)
        store.advance(15)
        var lines: [String] = []
        try StoredChange.apply(id: "tea", in: store, verb: "pause", report: { lines.append($0) }) { record, now in record.pauseChange(at: now) }
        #expect(lines == ["tea: paused, 00:00:45.0 left"])
    }

    @Test func aChangeToAFinishedCountdownEndsWithExitSevenAndChangesNothing() throws {
        let store = MemorySharedStore()
        try store.start("tea", seconds: 60)
        store.advance(61)
        let before = try store.memory.load(id: "tea")
        #expect(throws: CommandExit(.unknownCountdown)) {
            try StoredChange.apply(id: "tea", in: store, verb: "pause", report: { _ in }) { record, now in record.pauseChange(at: now) }
        }
        #expect(try store.memory.load(id: "tea") == before)
    }

    @Test func startingOverARunningCountdownIsRefusedWithExitTenUnlessReplacing() throws {
        let store = MemorySharedStore()
        try store.start("tea", seconds: 60)
        let make = { (now: StoreInstant) in
            try StoredCountdown.started(id: "tea", spec: .duration(300 * s), every: s, overtime: false, at: now)
        }
        #expect(throws: CommandExit(.conflict)) { try StoredChange.start(id: "tea", replace: false, in: store, report: { _ in }, record: make) }
        var lines: [String] = []
        try StoredChange.start(id: "tea", replace: true, in: store, report: { lines.append($0) }, record: make)
        #expect(lines.count == 1)
        #expect(lines[0].hasPrefix("tea: stored, running, 00:05:00.0 left, ends "))
    }
}
