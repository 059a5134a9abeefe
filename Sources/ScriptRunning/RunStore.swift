import CommandEnding
import CountdownCore
import SystemIdentity
import EventLoop
import LuaHost

/// What a run needs of the shared store (SQLite or Redis), whichever kind it
/// is: the command line's stores conform. Asked what differs between the
/// kinds, never which kind it is.
public protocol RunSharedStore: AnyObject {
    /// The countdowns, as the Lua host reads and changes them.
    var persistence: CountdownStoreBackend { get }
    /// The boot id a run stamps on the countdowns it stores; nil for a store
    /// that keeps instants on a clock of its own.
    var bootID: String? { get }
    /// How far a stored instant may move without being taken for a change made
    /// elsewhere; nil keeps the Lua host's default.
    var externalChangeTolerance: Nanoseconds? { get }
    /// A feed of the changes other processes make; its timers come from `timers`.
    func changeFeed(timers: WakeUpTimerSource) throws -> CountdownChangeFeed
    /// Lets changes the store holds back count against the run's memory limit.
    func chargeHeldChanges(to charge: @escaping (Int) -> Bool)
    /// At the end of a run: sends what the store still holds back, for at most
    /// `milliseconds`; false (said on stderr) when changes were lost.
    func finishRun(withinMilliseconds milliseconds: Int) -> Bool
}

/// Which store a run uses: the options that name one, and how to open it.
public struct RunStoreSettings {
    /// `--state-dir` or `--store` was given (a sandboxed run says it does not use it).
    public var named: Bool
    /// Opens the store the options name; its error is said on stderr and the run
    /// goes on in memory (exit 6 at the end).
    public var open: () throws -> RunSharedStore

    public init(named: Bool, open: @escaping () throws -> RunSharedStore) {
        self.named = named
        self.open = open
    }
}

/// Where a run keeps its persistent countdowns: the shared store (SQLite or
/// Redis), or memory when the run may not or cannot use it.
final class RunStore {
    /// The store other processes share; nil when countdowns stay in memory.
    let shared: RunSharedStore?
    /// The store was asked for and could not be opened: the run goes on in
    /// memory, and ends with 6.
    let unusable: Bool
    private let memory = InMemoryCountdownStore()

    /// Fast-forwarded time is not real time: a --speed run keeps its persistent
    /// countdowns in memory, so a demo never leaves scaled deadlines in the store.
    /// So does a sandboxed run (unless --allow-store): the store holds everyone's
    /// countdowns, and no script from elsewhere may read, change or fill it.
    init(settings: RunStoreSettings, hardening: HardeningSettings, speed: Double?) {
        if speed == nil, !hardening.opensStore, settings.named {
            printError("cdscript: --sandbox keeps persistent countdowns in memory; add --allow-store to use the store")
        }
        do {
            shared = speed == nil && hardening.opensStore ? try settings.open() : nil
            unusable = false
        } catch {
            printError("cdscript: \(error); persistent countdowns run on without the store")
            shared = nil
            unusable = true
        }
    }

    /// Gives `host` the run's store: every host of the run alike, the first and
    /// each reloaded version (--watch).
    func configure(_ host: LuaHost) {
        host.store.persistence = shared?.persistence ?? memory
        // Countdowns kept in memory (no store) are on this machine's boot clock.
        host.store.bootID = shared == nil ? BootID.current : shared?.bootID
        if let tolerance = shared?.externalChangeTolerance { host.store.externalChangeTolerance = tolerance }
    }

    /// Changes the store holds count against the script's memory limit, and
    /// changes other processes make to the countdowns this run holds arrive
    /// through the store's feed, in the loop's one poll (StoreFollowing.swift).
    func follow(on loop: MainLoop, live: LiveHost) {
        guard let shared else { return }
        shared.chargeHeldChanges { [weak live] in live?.host.vm.chargeMemory($0) ?? true }
        do {
            loop.follow(try shared.changeFeed(timers: loop)) { [unowned live] changes in live.host.store.applyChanges(changes) }
        } catch {
            printError("cdscript: \(error); changes made elsewhere reach this run only when it reads the store")
        }
    }

    /// At the end of the run: sends what the store still holds, for at most
    /// `milliseconds`. False when changes were lost (said on stderr).
    func finish(withinMilliseconds milliseconds: Int) -> Bool {
        shared?.finishRun(withinMilliseconds: milliseconds) ?? true
    }
}
