import CountdownCore
import LuaHost
import Testing
@testable import ScriptRunning

/// A shared store that counts how often it was opened and what the run's end asked of it.
private final class CountingStore: RunSharedStore {
    let persistence: CountdownStoreBackend = InMemoryCountdownStore()
    let bootID: String? = nil
    let externalChangeTolerance: Nanoseconds? = 5_000_000
    var finished: [Int] = []
    var sends = true
    struct NoFeed: Error {}
    func changeFeed(timers: WakeUpTimerSource) throws -> CountdownChangeFeed { throw NoFeed() }
    func chargeHeldChanges(to charge: @escaping (Int) -> Bool) {}
    func finishRun(withinMilliseconds milliseconds: Int) -> Bool {
        finished.append(milliseconds)
        return sends
    }
}

private struct Unopenable: Error, CustomStringConvertible {
    var description: String { "the store is damaged" }
}

@Suite("Where a run keeps its persistent countdowns")
struct RunStoreTests {
    @Test("a run in real time opens the store it is given, and its hosts use it")
    func opensTheStore() {
        let shared = CountingStore()
        var opened = 0
        let store = RunStore(settings: RunStoreSettings(named: true) { opened += 1; return shared }, hardening: HardeningSettings(), speed: nil)
        #expect(opened == 1)
        #expect(store.shared === shared)
        #expect(!store.unusable)
        let host = LuaHost(scheduler: Scheduler(clock: VirtualClock()))
        store.configure(host)
        #expect(host.store.persistence === shared.persistence)
        #expect(host.store.bootID == nil, "a store with a clock of its own stamps no boot id")
        #expect(host.store.externalChangeTolerance == 5_000_000)
    }

    @Test("a fast-forwarded run (--speed) never opens the store: scaled deadlines stay out of it")
    func speedKeepsMemory() {
        var opened = 0
        let store = RunStore(settings: RunStoreSettings(named: true) { opened += 1; return CountingStore() }, hardening: HardeningSettings(), speed: 60)
        #expect(opened == 0)
        #expect(store.shared == nil && !store.unusable)
        #expect(store.finish(withinMilliseconds: 100), "nothing to send, nothing lost")
    }

    @Test("a sandboxed run without --allow-store keeps its countdowns in memory, on this boot's clock")
    func sandboxKeepsMemory() {
        var opened = 0
        let store = RunStore(settings: RunStoreSettings(named: false) { opened += 1; return CountingStore() },
                             hardening: HardeningSettings(opensStore: false), speed: nil)
        #expect(opened == 0)
        let host = LuaHost(scheduler: Scheduler(clock: VirtualClock()))
        store.configure(host)
        #expect(host.store.persistence != nil)
        #expect(host.store.bootID != nil)
    }

    @Test("a store that cannot be opened leaves the run in memory, marked unusable (exit 6 at the end)")
    func unopenableStore() {
        let store = RunStore(settings: RunStoreSettings(named: true) { throw Unopenable() }, hardening: HardeningSettings(), speed: nil)
        #expect(store.shared == nil)
        #expect(store.unusable)
    }

    @Test("the run's end sends what the store holds within the budget given, and says when changes were lost")
    func finishSends() {
        let shared = CountingStore()
        let store = RunStore(settings: RunStoreSettings(named: true) { shared }, hardening: HardeningSettings(), speed: nil)
        #expect(store.finish(withinMilliseconds: 2_000))
        shared.sends = false
        #expect(!store.finish(withinMilliseconds: 100))
        #expect(shared.finished == [2_000, 100])
    }
}
