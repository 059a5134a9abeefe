import CountdownCore
import Foundation
import LuaHost
import Testing

private let s = Time.nanosecondsPerSecond

/// A store that counts what it is asked, by kind, and can fail every write.
private final class CountingStore: CountdownStoreBackend {
    let inner = InMemoryCountdownStore()
    var calls: [String] = []
    var batches: [Int] = []
    var loads = 0
    var failWrites = false

    struct Refused: Error, CustomStringConvertible { var description: String { "the disk is full" } }

    func load(id: String) throws -> StoredCountdown? { loads += 1; calls.append("load"); return try inner.load(id: id) }
    func list() throws -> [StoredCountdown] { calls.append("list"); return try inner.list() }
    func save(_ countdown: StoredCountdown) throws {
        calls.append("save")
        if failWrites { throw Refused() }
        try inner.save(countdown)
    }
    func saveAll(_ records: [StoredCountdown]) throws {
        calls.append("saveAll")
        batches.append(records.count)
        if failWrites { throw Refused() }
        for record in records { try inner.save(record) }
    }
    func delete(id: String) throws -> Bool { calls.append("delete"); return try inner.delete(id: id) }
    func modify<Result>(id: String, _ change: (inout StoredCountdown?) -> Result) throws -> Result {
        calls.append("modify")
        return try inner.modify(id: id, change)
    }
    func loadEach(ids: [String]) throws -> [(id: String, record: Swift.Result<StoredCountdown?, any Error>)] {
        calls.append("loadEach")
        return ids.map { id in (id, Swift.Result { try inner.load(id: id) }) }
    }
}

private final class Host {
    let clock = VirtualClock(boot: 100 * s, wall: 1_800_000_000 * s)
    let scheduler: Scheduler
    let host: LuaHost
    var errors: [String] = []

    init(store: CountdownStoreBackend) {
        scheduler = Scheduler(clock: clock)
        host = LuaHost(scheduler: scheduler)
        host.store.persistence = store
        host.store.bootID = "boot-A"
        host.reportError = { [unowned self] in self.errors.append($0) }
    }

    func run(_ source: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let failure = host.runScript(source: Data(source.utf8), chunkName: "=test")
        #expect(failure == nil, "\(failure?.message ?? "")", sourceLocation: sourceLocation)
    }
}

@Suite("Many persistent starts in a row in one callback are stored together when it returns")
struct HeldSavesTests {
    @Test("a main chunk's loop of 1,000 persistent starts: the first 16 committed as they start, the rest in one write when the chunk returns")
    func oneWritePerCallback() throws {
        let store = CountingStore()
        let p = Host(store: store)
        p.run(#"for i = 1, 1000 do countdown.start{ id = "s" .. i, seconds = 60, persist = true } end"#)
        #expect(store.calls == Array(repeating: "save", count: 16) + ["saveAll"])
        #expect(store.batches == [984])
        #expect(try store.inner.list().count == 1000)
        #expect(p.errors.isEmpty)
    }

    @Test("any other store operation in the callback writes the held starts first, in order")
    func heldStartsGoFirst() throws {
        let store = CountingStore()
        let p = Host(store: store)
        p.run(#"""
            for i = 1, 18 do countdown.start{ id = "s" .. i, seconds = 60, persist = true } end
            countdown.get("s1"):append(5)
            countdown.start{ id = "c", seconds = 60, persist = true }
            """#)
        #expect(store.calls == Array(repeating: "save", count: 16) + ["saveAll", "modify", "save"],
                "a start after another operation is the first of a new row")
        #expect(store.batches == [2])
        #expect(try store.inner.load(id: "s1")?.total == 65 * s)
    }

    @Test("starts in a hook are written when the hook returns")
    func startsInAHook() throws {
        let store = CountingStore()
        let p = Host(store: store)
        p.run(#"""
            countdown.start{ seconds = 1, every = 1, on_done = function()
              for i = 1, 20 do countdown.start{ id = "h" .. i, seconds = 60, persist = true } end
            end }
            """#)
        #expect(store.calls.isEmpty)
        p.scheduler.advance(p.clock, to: p.clock.boot + 2 * s)
        #expect(store.calls == Array(repeating: "save", count: 16) + ["saveAll"])
        #expect(store.batches == [4])
    }

    @Test("a batch the store refuses is reported with how many were stored; the countdowns run on in memory")
    func refusedBatch() throws {
        let store = CountingStore()
        store.failWrites = true
        let p = Host(store: store)
        p.run(#"for i = 1, 21 do countdown.start{ id = "s" .. i, seconds = 60, persist = true } end"#)
        #expect(p.errors.count == 2, "the first 16 alike, then the batch")
        #expect(p.errors.allSatisfy { $0.contains("the disk is full") })
        #expect(p.errors.last?.contains("none of the 5 countdowns started in one callback were stored") == true, "\(p.errors)")
        #expect(p.scheduler.activeCount == 21)
        #expect(p.host.store.errorCount == 2)
    }

    @Test("a change elsewhere is read for the held countdowns that changed only; everything at once in one read")
    func followingReadsInBulk() throws {
        let store = CountingStore()
        let p = Host(store: store)
        p.run(#"for i = 1, 2000 do countdown.start{ id = "s" .. i, seconds = 600, persist = true } end"#)
        store.calls = []
        try store.inner.modify(id: "s7") { $0?.total += s }
        p.host.store.applyChanges(.ids(["s7", "not-held"]))
        #expect(store.calls == ["loadEach"])
        p.host.store.applyChanges(.unknown)
        #expect(store.calls == ["loadEach", "loadEach"], "one read for all 2,000, not 2,000 reads")
        #expect(store.loads == 0)
    }
}
