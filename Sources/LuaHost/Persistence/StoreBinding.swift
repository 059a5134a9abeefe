import CLuaShim
import CountdownCore

/// The host's part for persistent countdowns: the store they are kept in, the ids
/// of those running here, and the store's failures so far. Its methods keep the
/// store in step with the scheduler (StoreUpdates.swift, StoredTakeOff.swift)
/// and the scheduler in step with the store (StoreFollowing.swift).
///
/// Owned by its `LuaHost`, which it points back to without a strong reference,
/// through a checked `unowned` one: a use after the host is gone traps
/// instead of reading freed memory (no benchmark showed a cost; see
/// docs/performance.md, "Back-pointers").
public final class StoreBinding {
    /// The host this part belongs to, set once by the host as it is made (a
    /// part is made before its host is whole, so that the host can hold it in a
    /// `let`).
    unowned var host: LuaHost!
    /// The Lua state and the scheduler, the host's, kept here so that its calls
    /// read them without going through the host.
    let vm: LuaVM
    let scheduler: Scheduler
    /// Where `persist = true` countdowns are kept; nil: persistence is unavailable
    /// in this host.
    public var persistence: CountdownStoreBackend? {
        didSet {
            // A store that would keep a copy of every countdown run here asks for them instead (HeldRecords.swift).
            copyKeeper = persistence?.handsOverHeldCountdowns
            copyKeeper?.holder = self
        }
    }
    /// `persistence`, when it leaves the countdowns run here to this process.
    var copyKeeper: HandsOverHeldCountdowns?
    /// For such a store: the records of countdowns about to be changed, by slot,
    /// as they were (`willChange`); the one being changed and the one ending now.
    var recordsBeforeChange: [Int32: (generation: UInt32, record: StoredCountdown)] = [:]
    var changingRecord: StoredCountdown?
    var endingRecord: StoredCountdown?
    /// The current boot's id, stored with boot-clock deadlines.
    public var bootID: String?
    /// Distinct store failures so far; the run ends non-zero when there were any.
    public internal(set) var errorCount = 0
    /// How far a stored countdown may differ from this process's copy and still be
    /// taken as the same (StoreFollowing.swift): clocks read a moment apart, or a
    /// Redis server clock's offset measured again, are not a change.
    public var externalChangeTolerance: Nanoseconds = 2_000_000
    /// Which scheduler slots run a persistent countdown, a bit each: the id is the
    /// handle's own, not copied here (the scheduler is given none either).
    var persistentIDs = PersistentIDs()
    /// The last failure's message, for `countdown.fetch`'s third result.
    var lastError: String?
    /// Failures already reported: each distinct one is reported once.
    var reportedErrors: Set<String> = []
    /// Store operations run so far (`withStore`): a change seen after one may
    /// have made what was read before it stale.
    var writeCount = 0
    /// Records of persistent countdowns started in the running callback, not
    /// written yet (HeldSaves.swift).
    var heldSaves: [StoredCountdown] = []
    /// Persistent starts in a row (no other store operation between them) in
    /// the running callback.
    var startsInARow = 0
    /// Ids of stored countdowns `countdown.cancel_all()` cancelled, not removed yet
    /// (HeldDeletes.swift), and whether it is running.
    var heldDeletes: [String] = []
    var holdingDeletes = false
    /// The title and end-action names of the persistent countdowns started here
    /// with some, by id: every record this process writes for them carries them.
    /// Empty for the many started without (nothing is hashed for those).
    var annotationsByID: [String: StoredAnnotations] = [:]

    /// Keeps `annotations` for the countdown stored under `id` (forgets any an
    /// earlier countdown of that id had). Inlined: every persistent start and
    /// fetch calls it, nearly always with none to keep and none kept.
    @inline(__always)
    func setAnnotations(_ annotations: StoredAnnotations, forID id: String) {
        if annotations.isEmpty {
            if !annotationsByID.isEmpty { annotationsByID[id] = nil }
        } else {
            annotationsByID[id] = annotations
        }
    }

    /// The bytes this part keeps for the persistent countdowns it runs, by
    /// capacity: a bit by slot for them, and titles, actions and end actions for the
    /// few that have them. What a process holding many pays here beside the
    /// scheduler's records, the Lua handles and the store's own copy
    /// (`cdbench memory`, docs/performance.md, "Memory of stored countdowns held").
    public var heldBytes: Int {
        persistentIDs.storageBytes
            + annotationsByID.capacity * (MemoryLayout<String>.stride + MemoryLayout<StoredAnnotations>.stride)
            + endActions.capacity * (MemoryLayout<Int32>.stride + MemoryLayout<EndAction>.stride)
    }

    /// Forgets the failures reported so far, so that the next one is reported
    /// again: `cdscript test` gives each test a store of its own.
    public func forgetReportedErrors() {
        reportedErrors.removeAll()
        lastError = nil
    }
    /// End actions (`on_end_action`) of the persistent countdowns running, by slot (EndActions.swift).
    var endActions: [Int32: EndAction] = [:]
    /// The end-action runner's `settle` (end_actions.lua), once loaded.
    var endRunnerRef: Int32 = 0
    /// Ends whose action this process runs or waits on (`countdown.end_actions()`).
    public internal(set) var pendingEndActions = 0
    /// The first exit status other than 0 of an end action, run here or by the
    /// process that claimed the end (recorded with the claim): every process that
    /// shares an end exits with it (EndActions.swift).
    public internal(set) var endActionStatus: Int32?

    init(vm: LuaVM, scheduler: Scheduler) {
        self.vm = vm
        self.scheduler = scheduler
        installHeldSavesWriter()
    }

    deinit {
        if Self.exitWriter == Unmanaged.passUnretained(self).toOpaque() { Self.exitWriter = nil }
        if !vm.isClosed, let limits = cd_get_limits(vm.state.raw) { limits.pointee.after_callback_pending = 0 }
    }
}
