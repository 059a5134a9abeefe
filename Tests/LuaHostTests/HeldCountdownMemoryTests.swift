import CountdownCore
import Foundation
import LuaHost
import Testing

private let s = Time.nanosecondsPerSecond

/// What a process that fetched every stored countdown keeps for each, counted
/// by structure (capacities and Lua's own count), not by timing or by resident
/// memory: the Lua handle with its registry slot and its id (the only copy of
/// the id), the host's id table (C memory, a hash and a reference per id), the
/// scheduler's record and queue entry, and the store part's mark by slot.
/// The store's own copy is bounded in `StoredCountdownTableTests`; resident
/// memory at 1,000 to 1,000,000 is `scripts/bench-store`'s (BENCHMARKS.md, section 10).
@Suite("A process holding every stored countdown keeps a few hundred bytes for each")
struct HeldCountdownMemoryTests {
    @Test("10,000 fetched countdowns take at most 300 structural bytes each in Lua, the id table, the scheduler and the store part, none lost")
    func heldStructure() throws {
        let held = try HeldFigures(fetching: 10_000)
        // 295 here: 165 in Lua, 26 in the id table, 103 in the scheduler (its
        // arrays at 16,384 for 10,000), under 1 in the store part. With the id
        // kept in each id-table slot and by slot in the store part, 373.
        #expect(held.total <= 300, "\(held)")
    }

    @Test("The id table keeps a hash and a reference per id, not the id: at most 32 bytes a countdown at 10,000")
    func idTableKeepsNoID() throws {
        let held = try HeldFigures(fetching: 10_000)
        // 8-byte slots at most half full: 16-32 bytes an id. With the id's bytes
        // and length in each slot (24 bytes) it was 48-96.
        #expect(held.idTable <= 32, "\(held)")
    }

    @Test("The store part keeps no copy of the ids it runs: at most a byte a countdown at 10,000")
    func storePartKeepsNoID() throws {
        let held = try HeldFigures(fetching: 10_000)
        // A bit per scheduler slot; a String? per slot was 16-32 bytes.
        #expect(held.binding <= 1, "\(held)")
    }
}

/// A host that fetched `n` stored countdowns, and the bytes it keeps for each, by part.
private struct HeldFigures: CustomStringConvertible {
    var lua = 0.0, idTable = 0.0, core = 0.0, binding = 0.0
    var total: Double { lua + idTable + core + binding }

    var description: String {
        "\(total) bytes a countdown: \(lua) in Lua, \(idTable) in the id table, \(core) in the scheduler, \(binding) in the store part"
    }

    init(fetching n: Int) throws {
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
        let idTableBefore = host.vm.idTableBytes
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
        lua = Double(host.vm.memoryInUse - luaBefore) / Double(n)
        idTable = Double(host.vm.idTableBytes - idTableBefore) / Double(n)
        core = Double(scheduler.storageBytes - schedulerBefore) / Double(n)
        binding = Double(host.store.heldBytes) / Double(n)
    }
}
