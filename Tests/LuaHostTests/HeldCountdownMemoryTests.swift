import CountdownCore
import Foundation
import LuaHost
import Testing

private let s = Time.nanosecondsPerSecond

/// What a process that fetched every stored countdown keeps for each, counted
/// by structure (capacities and Lua's own count), not by timing or by resident
/// memory: the scheduler's record and queue entry, the store part's id by slot,
/// and the Lua handle with its registry slot and its entry in the id table.
/// The store's own copy is bounded in `StoredCountdownTableTests`; resident
/// memory at 1,000 to 1,000,000 is `scripts/bench-store`'s (BENCHMARKS.md, section 10).
@Suite("A process holding every stored countdown keeps a few hundred bytes for each")
struct HeldCountdownMemoryTests {
    @Test("10,000 fetched countdowns take at most 300 structural bytes each in the host and the scheduler, none lost")
    func heldStructure() throws {
        let n = 10_000
        let clock = VirtualClock(boot: 100 * s, wall: 1_800_000_000 * s)
        let scheduler = Scheduler(clock: clock)
        let host = LuaHost(scheduler: scheduler)
        let store = InMemoryCountdownStore()
        for i in 1...n {
            try store.save(StoredCountdown(id: "s\(i)", state: .running, kind: .duration, wallDeadline: 1_800_100_000 * s,
                                           every: s, total: 100_000 * s, bootID: "boot-A", bootDeadline: 100_100 * s,
                                           updatedAt: 1_800_000_000 * s))
        }
        host.store.persistence = store
        host.store.bootID = "boot-A"
        var errors: [String] = []
        host.reportError = { errors.append($0) }
        let before = host.runScript(source: Data("collectgarbage() collectgarbage()".utf8), chunkName: "=gc")
        #expect(before == nil)
        let luaBefore = host.vm.memoryInUse
        let schedulerBefore = scheduler.storageBytes
        let fetch = """
            held = {}
            for i = 1, \(n) do held[i] = assert(countdown.fetch("s" .. i)) end
            """
        #expect(host.runScript(source: Data(fetch.utf8), chunkName: "=fetch") == nil)
        // The script's own table of handles is the script's, not the host's: dropped before counting.
        #expect(host.runScript(source: Data("held = nil collectgarbage() collectgarbage()".utf8), chunkName: "=gc") == nil)
        #expect(errors.isEmpty, "\(errors)")
        #expect(scheduler.activeKeys.count == n)
        let lua = Double(host.vm.memoryInUse - luaBefore) / Double(n)
        let core = Double(scheduler.storageBytes - schedulerBefore) / Double(n)
        let binding = Double(host.store.heldBytes) / Double(n)
        let total = lua + core + binding
        #expect(total <= 300, "\(total) bytes a countdown: \(lua) in Lua, \(core) in the scheduler, \(binding) in the store part")
        #expect(binding <= 40, "\(binding) bytes a countdown in the store part")
    }
}
