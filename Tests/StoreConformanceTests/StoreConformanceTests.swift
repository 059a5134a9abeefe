import CountdownCore
import Foundation
import Testing

/// What `CountdownStoreBackend` promises, held to by every store.
@Suite("Every store keeps, reads and changes countdowns the same way")
struct StoreConformanceTests {
    @Test("keeps every field: saves, loads, lists in id order, replaces on save, deletes", arguments: StoreKind.allCases)
    func roundTrip(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        let store = fixture.store
        let now = fixture.now
        var paused = fixture.started("b", 5 * s, at: now, kind: .wall)
        #expect(did { paused.pause(at: now) })
        let running = fixture.started("c", 60 * s, at: now)
        try store.save(running)
        try store.save(paused)
        #expect(fixture.same(try store.load(id: "b"), paused))
        #expect(fixture.same(try store.load(id: "c"), running))
        #expect(try store.load(id: "nope") == nil)
        #expect(try store.list().map(\.id) == ["b", "c"])
        #expect(try store.listing().unreadable.isEmpty)

        var longer = running
        longer.total = 90 * s
        try store.save(longer)
        #expect(try store.load(id: "c")?.total == 90 * s, "a save replaces what was stored under the id")
        #expect(try store.delete(id: "c"))
        #expect(try !store.delete(id: "c"))
        #expect(try store.load(id: "c") == nil)
        #expect(try store.list().map(\.id) == ["b"])
    }

    @Test("what one handle commits, another reads at once", arguments: StoreKind.allCases)
    func sharedBetweenHandles(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        let record = fixture.started("x", 60 * s, at: fixture.now)
        try fixture.store.save(record)
        let other = try fixture.another()
        #expect(fixture.same(try other.load(id: "x"), record))
        try other.modify(id: "x") { _ = $0?.append(5 * s, at: fixture.now) }
        #expect(try fixture.store.load(id: "x")?.total == 65 * s)
        #expect(try other.delete(id: "x"))
        #expect(try fixture.store.list().isEmpty)
    }

    @Test("append, pause, resume and cancel, as the commands make them through modify", arguments: StoreKind.allCases)
    func commandsThroughModify(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        let store = fixture.store
        let t = fixture.now
        try store.save(fixture.started("x", 60 * s, at: t))
        #expect(try store.modify(id: "x") { $0!.append(10 * s, at: t) })
        #expect(try store.load(id: "x")?.total == 70 * s)
        #expect(try store.modify(id: "x") { $0!.pause(at: t) })
        let paused = try #require(try store.load(id: "x"))
        // Redis pauses on its server's clock: the time left moves by the offset's error.
        #expect(paused.state == .paused && abs((paused.pausedRemaining ?? 0) - 70 * s) <= fixture.instantTolerance)
        #expect(try store.modify(id: "x") { $0!.append(-20 * s, at: t) })
        #expect(try store.load(id: "x")?.pausedRemaining == (paused.pausedRemaining ?? 0) - 20 * s, "time taken off a paused countdown")
        #expect(try store.modify(id: "x") { $0!.resume(at: t) })
        let resumed = try #require(try store.load(id: "x"))
        #expect(resumed.state == .running)
        #expect(abs(resumed.timeLeft(at: t) - 50 * s) <= 2 * fixture.instantTolerance)
        // Cancel: the record goes.
        #expect(try store.modify(id: "x") { record -> Bool in
            record = nil
            return true
        })
        #expect(try store.load(id: "x") == nil)
        // A change to nothing stored receives nil, and storing nothing writes nothing.
        #expect(try store.modify(id: "never") { $0 == nil })
        #expect(try store.list().isEmpty)
        // And may store a new record.
        try store.modify(id: "new") { $0 = fixture.started("new", s, at: t) }
        #expect(try store.list().map(\.id) == ["new"])
    }

    @Test("ids are bytes: NFC and NFD are two countdowns; ids with a NUL are refused or kept apart, never merged", arguments: StoreKind.allCases)
    func idsAreBytes(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        let store = fixture.store
        let t = fixture.now
        let nfc = "caf\u{E9}", nfd = "cafe\u{301}"
        try store.save(fixture.started(nfc, 100 * s, at: t))
        try store.save(fixture.started(nfd, 200 * s, at: t))
        for id in ["k one", "k two", "k"] { try store.save(fixture.started(id, s, at: t)) }
        #expect(try store.list().map { Array($0.id.utf8) } == [nfd, nfc, "k", "k one", "k two"].map { Array($0.utf8) }, "in byte order")
        #expect(try store.load(id: nfc)?.total == 100 * s)
        #expect(try store.load(id: nfd)?.total == 200 * s)
        try store.modify(id: nfd) { $0?.total += 5 * s }
        #expect(try store.load(id: nfc)?.total == 100 * s, "a change to NFD reached NFC")
        #expect(try store.delete(id: nfc))
        #expect(try store.load(id: nfd)?.total == 205 * s)

        var kept: [(id: String, total: Nanoseconds)] = []
        for (id, total) in [("k\0one", 2 * s), ("k\0two", 3 * s)] where (try? store.save(fixture.started(id, total, at: t))) != nil {
            kept.append((id, total))
        }
        #expect(try store.load(id: "k")?.total == s, "\"k\" is not overwritten by \"k\\0...\"")
        for (id, total) in kept { #expect(try store.load(id: id)?.total == total, "\(id.debugDescription)") }
        #expect(try store.list().count == 4 + kept.count)
    }

    @Test("loadEach and saveAll: many at once, in order, a missing id as nil", arguments: StoreKind.allCases)
    func manyAtOnce(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        let t = fixture.now
        let records = (0..<300).map { fixture.started(String(format: "m%03d", $0), Nanoseconds($0 + 1) * s, at: t) }
        try fixture.store.saveAll(records)
        let reader = try fixture.another()
        let loaded = try reader.loadEach(ids: ["missing"] + records.map(\.id).reversed())
        #expect(loaded.map(\.id) == ["missing"] + records.map(\.id).reversed())
        #expect(try loaded[0].record.get() == nil)
        #expect(try loaded.dropFirst().allSatisfy { entry in
            try entry.record.get()?.total == records.first { $0.id == entry.id }?.total
        })
        #expect(try reader.list().count == 300)
    }

    @Test("forEachListed hands out the listing in id order, at most a batch at a time, and stops when asked", arguments: StoreKind.allCases)
    func listedInBatches(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        let t = fixture.now
        try fixture.store.saveAll((0..<25).reversed().map { fixture.started(String(format: "b%02d", $0), 60 * s, at: t) })
        var batches: [[String]] = []
        try fixture.store.forEachListed(batchSize: 10) { batch in
            batches.append(batch.countdowns.map(\.id))
            return true
        }
        #expect(batches.map(\.count) == [10, 10, 5])
        #expect(batches.joined().elementsEqual((0..<25).map { String(format: "b%02d", $0) }))
        var calls = 0
        try fixture.store.forEachListed(batchSize: 10) { _ in
            calls += 1
            return false
        }
        #expect(calls == 1)
        let empty = try StoreFixture(kind)
        try empty.store.forEachListed(batchSize: 10) { _ in
            Issue.record("an empty store hands out no batch")
            return true
        }
    }

    @Test("read-change-writes from several handles at once lose no update", arguments: StoreKind.shared)
    func concurrentModify(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        let t = fixture.now
        try fixture.store.save(fixture.started("x", 100 * s, at: t))
        let handles = try (0..<4).map { _ in try fixture.another() }
        nonisolated(unsafe) let shared = handles
        DispatchQueue.concurrentPerform(iterations: shared.count) { i in
            for _ in 0..<25 { try! shared[i].modify(id: "x") { _ = $0?.append(s, at: t) } }
        }
        #expect(try fixture.store.load(id: "x")?.total == 200 * s)
    }
}
