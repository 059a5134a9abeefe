import CountdownCore
import EventLoop
import ScriptRunning
import StoreViews

extension RunSettings {
    /// The run's settings as the options give them (`run`, the built-in scripts, a plain script call).
    public init(options: StoreOptions, hardening: HardeningOptions, speed: Double?, view: ViewOptions, serve: ViewServeOptions? = nil) {
        let store = RunStoreSettings(named: options.stateDir != nil || options.store != nil) { try RunSharedStoreBox(options.openShared()) }
        self.init(store: store, hardening: hardening.settings, speed: speed, view: view.settings,
                  serve: serve?.settings(stateDir: options.stateDir))
    }
}

/// The command line's store (SharedStore) as a run uses it.
final class RunSharedStoreBox: RunSharedStore {
    public let store: SharedStore
    init(_ store: SharedStore) { self.store = store }
    var persistence: CountdownStoreBackend { store.persistence }
    var bootID: String? { store.bootID }
    var externalChangeTolerance: Nanoseconds? { store.externalChangeTolerance }
    func changeFeed(timers: WakeUpTimerSource) throws -> CountdownChangeFeed { try store.changeFeed(timers: timers) }
    func chargeHeldChanges(to charge: @escaping (Int) -> Bool) { store.chargeHeldChanges(to: charge) }
    func finishRun(withinMilliseconds milliseconds: Int) -> Bool { store.finishRun(withinMilliseconds: milliseconds) }
}
