import CountdownCore
import CountdownStore
import Foundation
import GRDB
import Testing

private let s = Time.nanosecondsPerSecond

/// Issue 37: an overtime countdown is kept in the store, past its end too.
@Suite("The SQLite store keeps overtime countdowns")
struct OvertimeStoreTests {
    /// `record` (CountdownStoreTests) ends at wall 1_000_060 s / boot 160 s; this is 25 s past that.
    let pastEnd = StoreInstant(boot: 185 * s, wall: 1_000_085 * s, bootID: "A")

    func overtime(_ id: String) -> StoredCountdown {
        var r = record(id)
        r.overtime = true
        return r
    }

    @Test("an overtime record round-trips, running and paused past its end, and reads back past its end with the same +time")
    func roundTrip() throws {
        let store = CountdownStore(directory: temporaryDirectory())
        var paused = overtime("paused")
        let didPause = paused.pause(at: pastEnd)
        #expect(didPause)
        #expect(paused.pausedRemaining == -25 * s, "the time past the end is frozen, below zero")
        try store.save(overtime("running"))
        try store.save(paused)
        try store.save(record("plain"))
        #expect(try store.load(id: "running") == overtime("running"))
        #expect(try store.load(id: "paused") == paused)
        #expect(try store.load(id: "plain")?.overtime == false)
        let running = try #require(try store.load(id: "running"))
        #expect(running.isPastEnd(at: pastEnd) && running.timeLeft(at: pastEnd) == -25 * s)
        #expect(running.effectiveState(at: pastEnd) == .running, "an overtime countdown is not finished by time")
        #expect(try #require(try store.load(id: "paused")).isPastEnd(at: pastEnd))
    }

    @Test("removeFinished (cdscript clear) keeps an overtime countdown past its end: it goes only when cancelled")
    func clearKeepsOvertime() throws {
        let store = CountdownStore(directory: temporaryDirectory())
        try store.save(overtime("pomodoro"))
        try store.save(record("plain"))
        #expect(try store.removeFinished(at: pastEnd) == ["plain"])
        #expect(try store.list().map(\.id) == ["pomodoro"])
    }

    @Test("past its end, time cannot be taken off (refused, nothing changes); time added counts down again")
    func appendPastTheEnd() throws {
        let store = CountdownStore(directory: temporaryDirectory())
        try store.save(overtime("o"))
        let refused = try store.modify(id: "o") { r -> String? in
            let why = r!.appendRefusal(-5 * s, at: pastEnd)
            let appended = r!.append(-5 * s, at: pastEnd)
            #expect(!appended)
            return why
        }
        #expect(refused == StoredCountdown.overtimeTakeOffRefusal)
        #expect(try store.load(id: "o") == overtime("o"))
        let added = try store.modify(id: "o") { $0!.append(60 * s, at: pastEnd) }
        #expect(added)
        let later = try #require(try store.load(id: "o"))
        #expect(later.timeLeft(at: pastEnd) == 35 * s, "the end moves 60 s from where it was: 25 s past it, 35 s are left")
        #expect(!later.isPastEnd(at: pastEnd))
    }

    @Test("a row written before migration v4 reads as not overtime, and the column is added with its default")
    func olderRowsAreNotOvertime() throws {
        let dir = temporaryDirectory()
        try writeSchemaV1Store(in: dir, holding: [record("old")])
        let store = CountdownStore(directory: dir)
        #expect(try store.load(id: "old") == record("old"))
        let (version, flag) = try store.open().read { db in
            (try Int.fetchOne(db, sql: "PRAGMA user_version"), try Int.fetchOne(db, sql: "SELECT overtime FROM countdown WHERE id = 'old'"))
        }
        #expect(version == 4)
        #expect(flag == 0)
    }
}
