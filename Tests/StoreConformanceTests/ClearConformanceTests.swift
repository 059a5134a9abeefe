import CountdownCore
import Foundation
import Testing

/// `seconds` before `now`.
func instant(_ seconds: Int64, before now: StoreInstant) -> StoreInstant {
    StoreInstant(boot: now.boot - seconds * s, wall: now.wall - seconds * s, bootID: now.bootID)
}

/// `cdscript clear`, records that cannot be read, and overtime countdowns
/// (issue 37), on every store.
@Suite("Every store clears what has ended, names what it cannot read and keeps overtime countdowns")
struct ClearConformanceTests {
    @Test("clear removes finished countdowns, and running ones whose end passed meanwhile; it keeps running, paused and overtime ones", arguments: StoreKind.allCases)
    func clearRemovesWhatEnded(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        let store = fixture.store
        let t = fixture.now
        var done = fixture.started("done", 60 * s, at: instant(30, before: t))
        done.state = .finished
        var overtime = fixture.started("overtime", 60 * s, at: instant(70, before: t))
        overtime.overtime = true
        var paused = fixture.started("paused", 60 * s, at: instant(70, before: t))
        #expect(did { paused.pause(at: instant(65, before: t)) })
        try store.saveAll([done, fixture.started("ended", 60 * s, at: instant(70, before: t)),
                           fixture.started("running", 60 * s, at: t), overtime, paused])

        let cleared = try store.clear(at: t)
        #expect(cleared.finished == ["done", "ended"])
        #expect(cleared.unreadable.isEmpty)
        #expect(try store.list().map(\.id) == ["overtime", "paused", "running"])
        let again = try fixture.another().clear(at: t)
        #expect(again.finished.isEmpty && again.unreadable.isEmpty, "nothing left to clear")
        // An overtime countdown goes only when cancelled.
        #expect(try store.delete(id: "overtime"))
    }

    @Test("a record that cannot be read is named and skipped by listing, refused by load, list and modify, and removed by clear or delete; the others go on", arguments: StoreKind.allCases)
    func unreadableRecords(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        let store = fixture.store
        let t = fixture.now
        try store.saveAll([fixture.started("a", 60 * s, at: t), fixture.started("c", 60 * s, at: t)])
        guard kind != .inMemory else {
            // Only what was given is held: nothing stored can be unreadable.
            #expect(try fixture.plantUnreadable(id: "b") == false)
            #expect(try store.listing().unreadable.isEmpty)
            return
        }
        // A store shared through a file or a server: a record can be damaged there.
        try #require(try fixture.plantUnreadable(id: "b"))
        try #require(try fixture.plantUnreadable(id: "d"))
        let listing = try store.listing()
        #expect(listing.countdowns.map(\.id) == ["a", "c"])
        #expect(listing.unreadable.map(\.id) == ["b", "d"])
        #expect(listing.unreadable.allSatisfy { "\($0)".contains("`cdscript cancel '\($0.id)'` removes it") })
        #expect(throws: (any Error).self) { try store.list() }
        #expect(throws: (any Error).self) { try store.load(id: "b") }
        #expect(throws: (any Error).self) { try store.modify(id: "b") { _ = $0?.append(s, at: t) } }
        let batch = try #require(try {
            var first: StoredCountdownListing?
            try store.forEachListed(batchSize: 100) { first = $0; return false }
            return first
        }())
        #expect(batch.unreadable.map(\.id) == ["b", "d"], "the batches name them too")
        // The readable ones go on.
        try store.modify(id: "a") { _ = $0?.append(s, at: t) }
        #expect(try store.load(id: "a")?.total == 61 * s)

        #expect(try store.delete(id: "b"))
        let cleared = try store.clear(at: t)
        #expect(cleared.finished.isEmpty)
        #expect(cleared.unreadable.map(\.id) == ["d"])
        #expect(try store.list().map(\.id) == ["a", "c"])
    }

    @Test("an overtime countdown round-trips past its end, running and paused, with the same +time", arguments: StoreKind.allCases)
    func overtimeRoundTrip(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        let t = fixture.now
        // Started 60 s ago for 35 s: 25 s past its end.
        var running = fixture.started("running", 35 * s, at: instant(60, before: t))
        running.overtime = true
        var paused = running
        paused.id = "paused"
        #expect(did { paused.pause(at: t) })
        #expect(paused.pausedRemaining == -25 * s, "the time past the end is frozen, below zero")
        try fixture.store.saveAll([running, paused, fixture.started("plain", 60 * s, at: t)])

        let other = try fixture.another()
        #expect(fixture.same(try other.load(id: "running"), running))
        #expect(fixture.same(try other.load(id: "paused"), paused))
        #expect(try other.load(id: "plain")?.overtime == false)
        let read = try #require(try other.load(id: "running"))
        #expect(read.isPastEnd(at: t) && read.effectiveState(at: t) == .running, "not finished by time")
        #expect(abs(read.timeLeft(at: t) + 25 * s) <= fixture.instantTolerance)
    }

    @Test("past its end, time cannot be taken off an overtime countdown; time added counts down again", arguments: StoreKind.allCases)
    func overtimeAppend(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        let store = fixture.store
        let t = fixture.now
        var record = fixture.started("o", 35 * s, at: instant(60, before: t))
        record.overtime = true
        try store.save(record)
        let refusal = try store.modify(id: "o") { r -> String? in
            let why = r!.appendRefusal(-5 * s, at: t)
            let appended = r!.append(-5 * s, at: t)
            #expect(!appended)
            return why
        }
        #expect(refusal == StoredCountdown.overtimeTakeOffRefusal)
        #expect(fixture.same(try store.load(id: "o"), record), "nothing changed")
        #expect(try store.modify(id: "o") { $0!.append(60 * s, at: t) })
        let later = try #require(try store.load(id: "o"))
        #expect(abs(later.timeLeft(at: t) - 35 * s) <= fixture.instantTolerance, "60 s from 25 s past the end")
        #expect(!later.isPastEnd(at: t))
    }
}
