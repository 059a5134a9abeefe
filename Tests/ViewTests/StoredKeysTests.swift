import CountdownCore
import Testing
import TerminalView

/// A store that remembers every removal: a restart must never remove the
/// countdown, even for a moment (a follower would end it, cancelled).
final class RemovalRecordingStore: CountdownStoreBackend {
    let inner = InMemoryCountdownStore()
    var removals: [String] = []

    func load(id: String) throws -> StoredCountdown? { try inner.load(id: id) }
    func list() throws -> [StoredCountdown] { try inner.list() }
    func save(_ countdown: StoredCountdown) throws { try inner.save(countdown) }
    func delete(id: String) throws -> Bool {
        removals.append(id)
        return try inner.delete(id: id)
    }
    func modify<Result>(id: String, _ change: (inout StoredCountdown?) -> Result) throws -> Result {
        try inner.modify(id: id) { record in
            let had = record != nil
            let result = change(&record)
            if had && record == nil { removals.append(id) }
            return result
        }
    }
}

/// Issue 37: the view's keys on a persistent countdown change the stored
/// countdown, as `cdscript pause/resume/append` do; others stay in this process.
@Suite("The view's keys change the countdown everyone sees")
struct StoredKeysTests {
    func harness() -> (ViewHarness, InMemoryCountdownStore) {
        let h = ViewHarness(columns: 40, rows: 7)
        let store = InMemoryCountdownStore()
        h.host.store.persistence = store
        return (h, store)
    }

    @Test("Space pauses a persistent countdown in the store and Space again resumes it there; the view shows the stored time")
    func spacePausesTheStore() throws {
        let (h, store) = harness()
        #expect(h.run("""
            view.label{ id = "left", text = "" }
            countdown.start{ id = "exam", seconds = 90, persist = true,
              on_tick = function(t) view.set("left", { text = countdown.format(t, "{M}:{ss}.{t}") }) end }
            """) == nil)
        h.advance(5.5)
        #expect(h.press("space") == .togglePause)
        let paused = try #require(try store.load(id: "exam"))
        #expect(paused.state == .paused)
        #expect(paused.pausedRemaining == 84_500_000_000)
        #expect(h.screen.contains("1:24.5"), "the view shows what the store holds, at once: \(h.screen)")
        h.advance(10)
        #expect(h.press("space") == .togglePause)
        let resumed = try #require(try store.load(id: "exam"))
        #expect(resumed.state == .running)
        #expect(resumed.timeLeft(at: StoreInstant(boot: h.clock.boot, wall: h.clock.wallNow(), bootID: nil)) == 84_500_000_000)
    }

    @Test("a countdown that is not persistent is paused by Space in this process only, as before")
    func plainCountdownStaysLocal() throws {
        let (h, store) = harness()
        #expect(h.run("countdown.start{ id = 'a', seconds = 10 }") == nil)
        #expect(h.press("space") == .togglePause)
        #expect(try store.list().isEmpty)
        #expect(store.commits == 0)
    }

    @Test("the timer's keys on a persistent countdown: + and - append in the store, Space pauses there, r starts it again under its id")
    func timerKeys() throws {
        let h = ViewHarness(columns: 40, rows: 7)
        let store = RemovalRecordingStore()
        h.host.store.persistence = store
        #expect(h.run("""
            keys = use("timer_keys")
            keys.start{ id = "exam", seconds = 60, persist = true, every = 0.1 }
            """) == nil)
        h.advance(10)
        _ = h.press("+")
        #expect(try store.load(id: "exam")?.total == 70_000_000_000)
        _ = h.press("-")
        #expect(try store.load(id: "exam")?.total == 60_000_000_000)
        _ = h.press("space")
        #expect(try store.load(id: "exam")?.state == .paused)
        _ = h.press("space")
        #expect(try store.load(id: "exam")?.state == .running)
        _ = h.press("r")
        let restarted = try #require(try store.load(id: "exam"), "r replaces the stored countdown, it does not cancel it")
        #expect(restarted.state == .running && restarted.total == 60_000_000_000)
        #expect(restarted.timeLeft(at: StoreInstant(boot: h.clock.boot, wall: h.clock.wallNow(), bootID: nil)) == 60_000_000_000)
        #expect(store.removals.isEmpty, "never removed from the store, so no follower ends it: \(store.removals)")
    }
}
