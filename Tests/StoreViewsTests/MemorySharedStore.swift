import CommandEnding
import CountdownCore
import Foundation
@testable import StoreViews

/// A `SharedStore` over CountdownCore's in-memory store, read at a virtual
/// clock's instants: what a command or a watcher does to a store, in process.
final class MemorySharedStore: SharedStore {
    let memory = InMemoryCountdownStore()
    let clock: VirtualClock

    init(clock: VirtualClock = VirtualClock()) { self.clock = clock }

    var location: String { "memory" }
    var persistence: CountdownStoreBackend { memory }
    var exists: Bool { true }
    func now() throws -> StoreInstant { StoreInstant(boot: clock.bootNow(), wall: clock.wallNow(), bootID: "A") }
    func changeFeed(timers: WakeUpTimerSource) throws -> CountdownChangeFeed { throw NoFeed() }
    var bootID: String? { "A" }
    var externalChangeTolerance: Nanoseconds? { nil }
    func chargeHeldChanges(to charge: @escaping (Int) -> Bool) {}
    func finishRun(withinMilliseconds milliseconds: Int) -> Bool { true }
    func finishCommand(withinMilliseconds milliseconds: Int) -> ExitStatus? { nil }

    /// The tests drive the watcher's refreshes themselves.
    struct NoFeed: Error {}

    /// Stores a countdown of `seconds` under `id`, started now.
    func start(_ id: String, seconds: Int64, overtime: Bool = false) throws {
        let record = try StoredCountdown.started(id: id, spec: .duration(seconds * Time.nanosecondsPerSecond), every: Time.nanosecondsPerSecond,
                                                 overtime: overtime, at: try now())
        try memory.save(record)
    }

    /// Moves the clock on by `seconds`.
    func advance(_ seconds: Int64) {
        clock.set(boot: clock.bootNow() + seconds * Time.nanosecondsPerSecond)
    }
}

/// A fresh folder under the system's temporary one, removed by `remove`.
struct TemporaryFolder {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("storeviews-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}
