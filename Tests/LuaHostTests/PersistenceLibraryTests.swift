import CountdownCore
import Foundation
import LuaHost
import Testing

private let s = Time.nanosecondsPerSecond

/// A store that logs every operation, so tests can see what was committed and when.
private final class LoggingStore: CountdownStoreBackend {
    let inner = InMemoryCountdownStore()
    var log: [String] = []
    var failure: String?

    struct Failure: Error, CustomStringConvertible { let description: String }

    private func check(_ op: String) throws {
        log.append(op)
        if let failure { throw Failure(description: failure) }
    }
    func load(id: String) throws -> StoredCountdown? { try check("load \(id)"); return try inner.load(id: id) }
    func list() throws -> [StoredCountdown] { try check("list"); return try inner.list() }
    func save(_ countdown: StoredCountdown) throws { try check("save \(countdown.id)"); try inner.save(countdown) }
    func delete(id: String) throws -> Bool { try check("delete \(id)"); return try inner.delete(id: id) }
    func deleteAll(ids: [String]) throws -> [String] { try check("deleteAll \(ids.joined(separator: ","))"); return try inner.deleteAll(ids: ids) }
    func modify<Result>(id: String, _ change: (inout StoredCountdown?) -> Result) throws -> Result {
        try check("modify \(id)")
        return try inner.modify(id: id, change)
    }
    subscript(id: String) -> StoredCountdown? { inner.countdowns[CountdownID(id)] }
}

/// One process: a host on a virtual clock sharing `store`.
private final class Process {
    let clock: VirtualClock
    let scheduler: Scheduler
    let host: LuaHost
    var errors: [String] = []

    init(store: CountdownStoreBackend?, boot: Nanoseconds = 100 * s, wall: Nanoseconds = 1_800_000_000 * s, bootID: String? = "boot-A") {
        clock = VirtualClock(boot: boot, wall: wall)
        scheduler = Scheduler(clock: clock)
        host = LuaHost(scheduler: scheduler)
        host.store.persistence = store
        host.store.bootID = bootID
        host.reportError = { [unowned self] in self.errors.append($0) }
    }

    /// Runs `source`; a failed Lua `assert` fails the test with its message.
    func run(_ source: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let failure = host.runScript(source: Data(source.utf8), chunkName: "=test")
        #expect(failure == nil, "\(failure?.message ?? "")", sourceLocation: sourceLocation)
    }

    func advance(by seconds: Int64) { scheduler.advance(clock, to: clock.boot + seconds * s) }
}

@Suite("countdown.start{ persist = true } keeps a countdown in the store")
struct PersistentStartTests {
    @Test("a persistent start stores the running countdown with both deadlines, before the first tick")
    func startStores() {
        let store = LoggingStore()
        let p = Process(store: store)
        p.run("""
            countdown.start{ id = "sms", seconds = 60, every = 0.5, persist = true,
                             on_tick = function(t) countdown.fetch("probe-tick") end }
            """)
        #expect(store.log.prefix(2) == ["save sms", "load probe-tick"])
        let r = store["sms"]
        #expect(r?.state == .running)
        #expect(r?.kind == .duration)
        #expect(r?.bootID == "boot-A")
        #expect(r?.bootDeadline == 160 * s)
        #expect(r?.wallDeadline == 1_800_000_060 * s)
        #expect(r?.every == s / 2)
        #expect(r?.total == 60 * s)
    }

    @Test("an at countdown is stored as one that follows the wall clock")
    func atStoresWall() {
        let store = LoggingStore()
        let p = Process(store: store)
        p.run(#"countdown.start{ id = "sale", at = "2027-01-15T08:00:10Z", persist = true }"#)
        #expect(store["sale"]?.kind == .wall)
        let deadline = Nanoseconds(ISO8601DateFormatter().date(from: "2027-01-15T08:00:10Z")!.timeIntervalSince1970) * s
        #expect(store["sale"]?.wallDeadline == deadline)
    }

    @Test("without persist nothing is stored, and no store is even asked")
    func plainStartStoresNothing() {
        let store = LoggingStore()
        let p = Process(store: store)
        p.run(#"local h = countdown.start{ id = "x", seconds = 3 }; h:append(1); h:pause(); h:resume(); h:cancel()"#)
        p.run(#"countdown.start{ id = "y", seconds = 1 }"#)
        p.advance(by: 2)
        #expect(store.log.isEmpty)
    }

    @Test("persist needs an id and must be a boolean")
    func badOptions() {
        let p = Process(store: LoggingStore())
        let noID = p.host.runScript(source: Data("countdown.start{ seconds = 5, persist = true }".utf8), chunkName: "=test")
        #expect(noID?.message.contains("'persist = true' needs an 'id'") == true)
        let notBool = p.host.runScript(source: Data(#"countdown.start{ id = "x", seconds = 5, persist = "yes" }"#.utf8), chunkName: "=test")
        #expect(notBool?.message.contains("'persist' must be true or false, got string") == true)
        let typo = p.host.runScript(source: Data(#"countdown.start{ id = "x", seconds = 5, persits = true }"#.utf8), chunkName: "=test")
        #expect(typo?.message.contains("did you mean 'persist'") == true)
    }
}

@Suite("Changes to a persistent countdown are committed before the next hook runs")
struct PersistentChangeTests {
    @Test("append, pause and resume update the stored record")
    func changes() {
        let store = LoggingStore()
        let p = Process(store: store)
        p.run(#"h = countdown.start{ id = "c", seconds = 10, persist = true }"#)
        p.advance(by: 2)
        p.run("h:append(5)")
        #expect(store["c"]?.total == 15 * s)
        #expect(store["c"]?.bootDeadline == 115 * s)
        p.run("assert(h:pause())")
        #expect(store["c"]?.state == .paused)
        #expect(store["c"]?.pausedRemaining == 13 * s)
        p.advance(by: 100)
        p.run("assert(h:resume())")
        #expect(store["c"]?.state == .running)
        #expect(store["c"]?.bootDeadline == (202 + 13) * s)
        // Unchanged state: pausing twice writes nothing.
        let before = store.log.count
        p.run("assert(not h:resume())")
        #expect(store.log.count == before)
    }

    @Test("cancel removes it before on_done runs")
    func cancelRemoves() {
        let store = LoggingStore()
        let p = Process(store: store)
        p.run(#"h = countdown.start{ id = "c", seconds = 10, persist = true, on_done = function(t, why) countdown.fetch("probe-" .. why) end }"#)
        p.run("h:cancel()")
        #expect(store["c"] == nil)
        #expect(store.log.suffix(2) == ["delete c", "load probe-cancelled"])
    }

    @Test("cancel_all removes every persistent countdown")
    func cancelAllRemoves() {
        let store = LoggingStore()
        let p = Process(store: store)
        p.run(#"countdown.start{ id = "a", seconds = 10, persist = true }; countdown.start{ id = "b", seconds = 10, persist = true }; countdown.cancel_all()"#)
        #expect(store.inner.countdowns.isEmpty)
    }

    @Test("the end marks it finished before on_done runs, and keeps it for `cdscript clear`")
    func finishMarks() {
        let store = LoggingStore()
        let p = Process(store: store)
        p.run(#"countdown.start{ id = "c", seconds = 3, persist = true, on_done = function(t, why) countdown.fetch("probe-" .. why) end }"#)
        p.advance(by: 5)
        #expect(store["c"]?.state == .finished)
        #expect(store.log.suffix(2) == ["modify c", "load probe-finished"])
    }

    @Test("append on a finished persistent countdown starts and stores a new one")
    func appendAfterEnd() {
        let store = LoggingStore()
        let p = Process(store: store)
        p.run(#"h = countdown.start{ id = "c", seconds = 3, persist = true }"#)
        p.advance(by: 5)
        p.run("h:append(7)")
        #expect(store["c"]?.state == .running)
        #expect(store["c"]?.total == 7 * s)
        #expect(store["c"]?.bootDeadline == 112 * s)
    }

    @Test("a non-persistent start under the same id stops storing changes but leaves the stored one alone")
    func nonPersistentReplacement() {
        let store = LoggingStore()
        let p = Process(store: store)
        p.run(#"countdown.start{ id = "c", seconds = 30, persist = true }"#)
        p.run(#"h = countdown.start{ id = "c", seconds = 5 }; h:append(1); h:cancel()"#)
        #expect(store["c"]?.total == 30 * s)
        #expect(store["c"]?.state == .running)
    }
}

@Suite("countdown.fetch picks up a stored countdown with the time that passed")
struct FetchTests {
    @Test("in another process of the same boot it continues on the boot clock, a wall-clock change notwithstanding")
    func sameBoot() {
        let store = LoggingStore()
        Process(store: store).run(#"countdown.start{ id = "sms", seconds = 60, persist = true }"#)
        // 25 s later, and someone set the wall clock back a day.
        let later = Process(store: store, boot: 125 * s, wall: (1_800_000_025 - 86_400) * s)
        later.run("""
            seen = {}
            local h = countdown.fetch("sms", { on_tick = function(t) seen[#seen + 1] = t.remaining .. "/" .. t.elapsed end })
            assert(h and h.id == "sms" and h:state() == "running")
            assert(seen[1] == "35.0/25.0", seen[1])
            assert(math.abs(h:remaining() - 35) < 1e-9)
            """)
        later.advance(by: 40)
        #expect(later.scheduler.activeCount == 0)
        #expect(store["sms"]?.state == .finished)
    }

    @Test("after a reboot it continues by the wall clock")
    func afterReboot() {
        let store = LoggingStore()
        Process(store: store).run(#"countdown.start{ id = "sms", seconds = 60, persist = true }"#)
        let rebooted = Process(store: store, boot: 3 * s, wall: 1_800_000_050 * s, bootID: "boot-B")
        rebooted.run(#"local h = countdown.fetch("sms"); assert(math.abs(h:remaining() - 10) < 1e-9, h:remaining())"#)
        rebooted.run(#"countdown.get("sms"):append(1)"#)
        #expect(store["sms"]?.bootID == "boot-A", "an append keeps the stored deadlines and only moves them")
        #expect(store["sms"]?.wallDeadline == 1_800_000_061 * s)
    }

    @Test("an at countdown follows the wall clock when picked up")
    func atFollowsWall() {
        let store = LoggingStore()
        Process(store: store).run(#"countdown.start{ id = "sale", at = "2027-01-15T09:00:00Z", persist = true }"#)
        let deadline = Nanoseconds(ISO8601DateFormatter().date(from: "2027-01-15T09:00:00Z")!.timeIntervalSince1970) * s
        let later = Process(store: store, boot: 500 * s, wall: deadline - 90 * s)
        later.run(#"local h = countdown.fetch("sale"); assert(math.abs(h:remaining() - 90) < 1e-9, h:remaining())"#)
    }

    @Test("a countdown that ended meanwhile gives nil, \"finished\", calls no hook, and is marked finished")
    func endedMeanwhile() {
        let store = LoggingStore()
        Process(store: store).run(#"countdown.start{ id = "sms", seconds = 60, persist = true }"#)
        let later = Process(store: store, boot: 300 * s, wall: 1_800_000_200 * s)
        later.run("""
            local called = false
            local h, why = countdown.fetch("sms", { on_tick = function() called = true end, on_done = function() called = true end })
            assert(h == nil and why == "finished", tostring(why))
            assert(not called)
            """)
        #expect(store["sms"]?.state == .finished)
        later.run(#"local h, why = countdown.fetch("sms"); assert(h == nil and why == "finished")"#)
    }

    @Test("an id never stored gives nil, \"unknown\"")
    func unknown() {
        let p = Process(store: LoggingStore())
        p.run(#"local h, why = countdown.fetch("nope", { on_done = function() error("no hook may run") end }); assert(h == nil and why == "unknown")"#)
        #expect(p.host.hookErrorCount == 0)
    }

    @Test("a paused countdown comes back paused, with its frozen time and no tick")
    func paused() {
        let store = LoggingStore()
        Process(store: store).run(#"local h = countdown.start{ id = "p", seconds = 60, persist = true }; h:pause()"#)
        let later = Process(store: store, boot: 900 * s, wall: 1_900_000_000 * s, bootID: "boot-C")
        later.run("""
            ticks = 0
            h = countdown.fetch("p", { on_tick = function() ticks = ticks + 1 end })
            assert(h:state() == "paused" and h:remaining() == 60 and ticks == 0)
            assert(h:resume())
            """)
        later.advance(by: 60)
        #expect(later.scheduler.activeCount == 0)
        #expect(store["p"]?.state == .finished)
    }

    @Test("every may be given anew, for this viewer only: the stored one stays, and is what a fetch without one uses")
    func everyOption() {
        let store = LoggingStore()
        Process(store: store).run(#"countdown.start{ id = "e", seconds = 10, every = 2, persist = true }"#)
        let later = Process(store: store, boot: 101 * s)
        later.run(#"n = 0; countdown.fetch("e", { on_tick = function() n = n + 1 end })"#)
        later.advance(by: 8)
        later.run("assert(n == 5, n)") // 9, 8, 6, 4, 2
        let third = Process(store: store, boot: 101 * s)
        third.run(#"n = 0; countdown.fetch("e", { every = 0.5, on_tick = function() n = n + 1 end })"#)
        third.advance(by: 8)
        third.run("assert(n == 17, n)") // 9, 8.5, ..., 1
        #expect(store["e"]?.every == 2 * s)
        let fourth = Process(store: store, boot: 101 * s)
        fourth.run(#"n = 0; countdown.fetch("e", { on_tick = function() n = n + 1 end })"#)
        fourth.advance(by: 8)
        fourth.run("assert(n == 5, n)")
    }

    @Test("fetch checks its arguments")
    func badArguments() {
        let p = Process(store: LoggingStore())
        let noID = p.host.runScript(source: Data("countdown.fetch(42)".utf8), chunkName: "=test")
        #expect(noID?.message.contains("expected an id string") == true)
        let typo = p.host.runScript(source: Data(#"countdown.fetch("x", { on_tik = print })"#.utf8), chunkName: "=test")
        #expect(typo?.message.contains("did you mean 'on_tick'") == true)
        let slow = p.host.runScript(source: Data(#"countdown.fetch("x", { every = 0.01 })"#.utf8), chunkName: "=test")
        #expect(slow?.message.contains("at least 0.1") == true)
        // The same bounds and words as countdown.start's, the quick way and the long way.
        for (every, said) in [("1e308", "'every' must be at most 2305843009 seconds"), ("0/0", "'every' must be a number of seconds from 0.1"),
                              ("'1e308'", "'every' must be")] {
            for extra in ["", ", on_tick = setmetatable({}, { __call = print })"] {
                let fetched = p.host.runScript(source: Data("countdown.fetch('x', { every = \(every)\(extra) })".utf8), chunkName: "=test")
                let started = p.host.runScript(source: Data("countdown.start{ seconds = 1, every = \(every)\(extra) }".utf8), chunkName: "=test")
                #expect(fetched?.message.contains("countdown.fetch: \(said)") == true, "\(every)\(extra): \(fetched?.message ?? "accepted")")
                #expect(started?.message.contains("countdown.start: \(said)") == true, "\(every)\(extra): \(started?.message ?? "accepted")")
            }
        }
    }

    /// Plain options are read in one pass in C (cd_fetch_read); anything else
    /// (a callable table, a start-only option, a wrong type) takes the long way,
    /// with the same behaviour and messages.
    @Test("fetch's options read alike the quick way and the long way")
    func quickAndLongOptions() {
        let store = LoggingStore()
        Process(store: store).run(#"countdown.start{ id = "q", seconds = 4, every = 1, persist = true }"#)
        let quick = Process(store: store, boot: 101 * s)
        quick.run(#"ticks, done = 0, nil; countdown.fetch("q", { on_done = function(t, why) done = why end, every = 0.5, on_tick = function() ticks = ticks + 1 end })"#)
        quick.advance(by: 4)
        quick.run(#"assert(ticks == 6 and done == "finished", tostring(ticks) .. " " .. tostring(done))"#) // 3, 2.5, ..., 0.5
        Process(store: store, boot: 200 * s).run(#"countdown.start{ id = "l", seconds = 4, every = 1, persist = true }"#)
        let long = Process(store: store, boot: 201 * s)
        long.run(#"ticks = 0; countdown.fetch("l", { every = 0.5, on_tick = setmetatable({}, { __call = function() ticks = ticks + 1 end }) })"#)
        long.advance(by: 4)
        long.run("assert(ticks == 6, ticks)")

        let p = Process(store: LoggingStore())
        func message(_ options: String) -> String {
            p.host.runScript(source: Data(#"countdown.fetch("x", \#(options))"#.utf8), chunkName: "=test")?.message ?? "no error"
        }
        #expect(message("{ persist = false }").contains("unknown option 'persist'"))
        #expect(message(#"{ id = "y" }"#).contains("unknown option 'id'"))
        #expect(message("{ seconds = 5, on_tick = print }").contains("unknown option 'seconds'"))
        #expect(message("{ on_tick = 5 }").contains("'on_tick' must be a function, got number"))
        #expect(message("{ every = {} }").contains("'every' must be a number, got table"))
        #expect(message(#"{ every = "0.5" }"#) == "no error", "a duration string, as countdown.start takes it")
        #expect(message(#"{ every = "often" }"#).contains("'every' must be a duration from 0.1 s"))
        #expect(message("{ every = 0.01, on_tick = 5 }").contains("at least 0.1"), "every is checked before the hooks")
        #expect(message("{ every = 0/0 }").contains("'every' must be a number of seconds from 0.1"), "as countdown.start says it")
    }

    @Test("two processes share one countdown: appends from both add up in the store")
    func twoProcesses() {
        let store = LoggingStore()
        let a = Process(store: store)
        let b = Process(store: store)
        a.run(#"countdown.start{ id = "x", seconds = 60, persist = true }"#)
        b.run(#"countdown.fetch("x"):append(10)"#)
        a.run(#"countdown.get("x"):append(5)"#)
        #expect(store["x"]?.total == 75 * s)
        #expect(store["x"]?.bootDeadline == 175 * s)
    }
}

@Suite("A store that fails never stops a script")
struct UnavailableStoreTests {
    @Test("persistent countdowns run on in memory; the error is reported once; fetch says unavailable")
    func failingStore() {
        let store = LoggingStore()
        store.failure = "the countdown store /x/state.sqlite is damaged"
        let p = Process(store: store)
        p.run("""
            done = 0
            h = countdown.start{ id = "a", seconds = 2, persist = true, on_done = function() done = done + 1 end }
            countdown.start{ id = "b", seconds = 2, on_done = function() done = done + 1 end }
            h:append(1)
            local f, why, message = countdown.fetch("a")
            assert(f == nil and why == "unavailable" and message:find("damaged"), tostring(why))
            """)
        p.advance(by: 5)
        p.run("assert(done == 2, done)")
        #expect(p.host.store.errorCount == 1)
        #expect(p.errors.count == 1)
        #expect(p.errors.first?.contains("/x/state.sqlite is damaged; persistent countdowns run on without the store") == true)
    }

    @Test("a host without a store says so")
    func noStore() {
        let p = Process(store: nil)
        p.run(#"countdown.start{ id = "a", seconds = 1, persist = true }; assert(select(2, countdown.fetch("a")) == "unavailable")"#)
        #expect(p.errors.first?.contains("no countdown store is configured") == true)
    }
}

@Suite("countdown.cancel_all() removes the stored countdowns it cancels together")
struct CancelAllStoreTests {
    @Test("the stored ones are removed in one deleteAll when it returns, not one delete apiece; plain ones ask nothing of the store")
    func removedTogether() {
        let store = LoggingStore()
        let p = Process(store: store)
        p.run(#"for i = 1, 40 do countdown.start{ id = "c" .. i, seconds = 60, persist = true } end"#)
        p.run(#"countdown.start{ id = "plain", seconds = 60 }"#)
        store.log.removeAll()
        p.run("countdown.cancel_all()")
        #expect(store.log == ["deleteAll " + (1...40).map { "c\($0)" }.joined(separator: ",")], "\(store.log)")
        #expect(store.inner.countdowns.isEmpty)
    }

    @Test("a done hook that reaches the store meanwhile sees the removals made before it; one that starts the id again keeps it stored")
    func hooksSeeThemRemoved() {
        let store = LoggingStore()
        let p = Process(store: store)
        p.run("""
            countdown.start{ id = "a", seconds = 60, persist = true }
            countdown.start{ id = "b", seconds = 60, persist = true, on_done = function(_, why)
              assert(why == "cancelled")
              assert(countdown.fetch("a") == nil, "a was removed before b's hook ran")
              countdown.start{ id = "b", seconds = 30, persist = true }
            end }
            countdown.start{ id = "c", seconds = 60, persist = true }
            """)
        store.log.removeAll()
        p.run("countdown.cancel_all()")
        #expect(store.log.first == "deleteAll a,b", "a and b (whose hook this is) removed together, before its fetch: \(store.log)")
        #expect(store["a"] == nil && store["c"] == nil)
        #expect(store["b"]?.total == 30 * s, "started again by its hook: stored")
    }

    @Test("a start held from earlier in the same callback is written before the removals, so a cancelled start is not stored")
    func heldStartsFirst() {
        let store = LoggingStore()
        let p = Process(store: store)
        p.run(#"for i = 1, 40 do countdown.start{ id = "h" .. i, seconds = 60, persist = true } end countdown.cancel_all()"#)
        #expect(store.inner.countdowns.isEmpty, "\(store.inner.countdowns.keys.count) left")
    }
}
