import CountdownCore
import Foundation
@testable import LuaHost
import Testing

/// A host sent to another thread on purpose, to break the rule under test.
private final class Smuggled: @unchecked Sendable {
    let host: LuaHost
    init(_ host: LuaHost) { self.host = host }
}

@Suite("The host's Lua state has one owner thread, and its parts live no longer than it")
struct HostOwnershipTests {
    @Test("the thread that made a host owns it, and runs scripts on it")
    func ownerRunsScripts() {
        let host = LuaHost(scheduler: Scheduler(clock: VirtualClock()))
        #expect(host.owner.isCurrent)
        #expect(host.runScript(source: Data("countdown.start{ seconds = 1, on_tick = function() end }".utf8), chunkName: "=owner") == nil)
        #expect(host.scheduler.activeCount == 1)
    }

    #if DEBUG
    @Test("debug builds stop a process that runs a script from another thread")
    func anotherThreadStopsTheProcess() async {
        await #expect(processExitsWith: .failure) {
            let smuggled = Smuggled(LuaHost(scheduler: Scheduler(clock: VirtualClock())))
            let done = DispatchSemaphore(value: 0)
            Thread {
                _ = smuggled.host.runScript(source: Data("x = 1".utf8), chunkName: "=elsewhere")
                done.signal()
            }.start()
            done.wait()
        }
    }
    #endif

    @Test("a countdown part used after its host went stops the process instead of reading freed memory")
    func countdownPartAfterHost() async {
        await #expect(processExitsWith: .failure) {
            var part: CountdownBinding?
            do {
                let host = LuaHost(scheduler: Scheduler(clock: VirtualClock()))
                part = host.countdowns
            }
            _ = part?.host.scheduler
        }
    }

    @Test("a store part used after its host went stops the process instead of reading freed memory")
    func storePartAfterHost() async {
        await #expect(processExitsWith: .failure) {
            var part: StoreBinding?
            do {
                let host = LuaHost(scheduler: Scheduler(clock: VirtualClock()))
                part = host.store
            }
            _ = part?.host.scheduler
        }
    }

    @Test("a plugin part used after its host went stops the process instead of reading freed memory")
    func pluginPartAfterHost() async {
        await #expect(processExitsWith: .failure) {
            var part: PluginBinding?
            do {
                let host = LuaHost(scheduler: Scheduler(clock: VirtualClock()))
                part = host.plugins
            }
            _ = part?.host.scheduler
        }
    }
}
