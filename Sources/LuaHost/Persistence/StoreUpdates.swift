import CLua
import CLuaShim
import CountdownCore

/// Persistent countdowns: the store updates behind append, pause, resume, cancel and the end.
///
/// Every change is committed to `persistence` before the call that made it returns,
/// so before the next hook runs. A store that cannot be used never stops a script:
/// the error is reported once (naming the file), counted in `errorCount`,
/// and the countdowns run on in memory.
extension StoreBinding {
    /// One instant read from every clock a stored countdown needs. While a hook
    /// runs it is the hook's tick instant, like `scheduler.now`.
    func currentInstant() -> StoreInstant {
        let boot = scheduler.now
        let clock = scheduler.clock
        return StoreInstant(boot: boot, wall: clock.wallNow() - (clock.bootNow() - boot), bootID: bootID)
    }

    /// The store, or nil after reporting why there is none.
    func configuredStore() -> CountdownStoreBackend? {
        if persistence == nil { reportError("no countdown store is configured for this run") }
        return persistence
    }

    /// Runs one store operation; a failure is reported (once per distinct message)
    /// and turned into nil.
    @discardableResult
    func withStore<T>(_ body: (CountdownStoreBackend) throws -> T) -> T? {
        // What was cancelled together, then what the running callback started, is
        // written first: nothing reads around it.
        if !heldDeletes.isEmpty { writeHeldDeletes() }
        if !heldSaves.isEmpty { writeHeldSaves() }
        guard let store = configuredStore() else { return nil }
        writeCount &+= 1
        startsInARow = 0
        do {
            return try body(store)
        } catch {
            reportError("\(error)")
            return nil
        }
    }

    func reportError(_ message: String) {
        lastError = message
        guard reportedErrors.insert(message).inserted else { return }
        errorCount += 1
        host.reportError("cdscript: \(message); persistent countdowns run on without the store")
    }

    /// The record of a running or paused countdown as this process sees it.
    func storedRecord(_ key: CountdownKey, id: String, now: StoreInstant) -> StoredCountdown? {
        guard let state = scheduler.state(key), let bootDeadline = scheduler.bootDeadline(key),
              let every = scheduler.every(key), let total = scheduler.total(key) else { return nil }
        let followsWall = scheduler.followsWallClock(key) ?? false
        let wallDeadline = followsWall ? (scheduler.wallDeadline(key) ?? now.wall) : now.wall + (bootDeadline - now.boot)
        let annotations = annotationsByID.isEmpty ? nil : annotationsByID[id]
        return StoredCountdown(
            id: id, state: state == .paused ? .paused : .running, kind: followsWall ? .wall : .duration,
            wallDeadline: wallDeadline, pausedRemaining: state == .paused ? scheduler.timeLeft(key) : nil,
            every: every, total: total, bootID: bootID, bootDeadline: state == .paused ? nil : bootDeadline,
            updatedAt: now.wall, overtime: scheduler.isOvertime(key) ?? false,
            title: annotations?.title, actions: annotations?.actions ?? [])
    }

    /// The id of the persistent countdown `key`, while it runs: its handle's, read
    /// through the handle reference the scheduler keeps for it.
    func persistentID(_ key: CountdownKey) -> String? {
        guard persistentIDs[key.slot], let context = scheduler.context(key) else { return nil }
        return handleID(ref: SlotHooks(context: context).handleRef)
    }

    /// The id of the handle registry[ref] (its user value `CD_UV_ID`), if it has one.
    func handleID(ref: Int32) -> String? {
        let L = host.current
        L.pushRef(ref)
        lua_getiuservalue(L.raw, -1, CD_UV_ID)
        defer { L.pop(2) }
        return L.string(at: -1)
    }

    /// The ids of every persistent countdown running here, in no particular order.
    var allPersistentIDs: [String] {
        persistentIDs.count == 0 ? [] : scheduler.activeKeys.compactMap { persistentID($0) }
    }

    /// The running persistent countdown stored under `id`, found through the id table.
    public func persistentKey(forID id: String) -> CountdownKey? {
        guard persistentIDs.count != 0 else { return nil }
        let L = host.current
        L.push(id)
        cd_push_handle_for_id(L.raw, vm.hookCaller, L.top)
        let handle = cd_to_handle(L.raw, -1)
        L.pop(2)
        guard let handle, handle.pointee.persistent != 0 else { return nil }
        let key = CountdownBinding.key(handle)
        // The id table found the handle by the id's bytes: what is left to check
        // is that its countdown still runs here as a persistent one.
        return persistentIDs[key.slot] && scheduler.state(key) != nil ? key : nil
    }

    /// Called by `launch` once a persistent countdown exists and before its first tick.
    func started(_ key: CountdownKey, id: String) {
        guard let record = storedRecord(key, id: id, now: currentInstant()) else { return }
        // Inside a callback, written with the others it starts when it returns.
        if holdSave(record) { return }
        let inARow = startsInARow
        withStore { try $0.save(record) }
        startsInARow = inARow
    }

    /// Applies a change made to a running countdown to its stored record. When the
    /// record is gone (removed by `cdscript cancel`, say), this process's view is stored.
    func change(_ key: CountdownKey, _ change: (inout StoredCountdown, StoreInstant) -> Void) {
        // The countdowns that are not stored (most) leave at once, with nothing
        // made or taken (issue 53: an append paid about 60 instructions here for
        // an empty record before the change otherwise).
        guard let id = persistentID(key) else {
            if !recordsBeforeChange.isEmpty { _ = takeRecordBeforeChange(key) }
            return
        }
        let before = recordsBeforeChange.isEmpty ? nil : takeRecordBeforeChange(key)
        let now = currentInstant()
        let local = storedRecord(key, id: id, now: now)
        changingRecord = before
        defer { changingRecord = nil }
        withStore { store in
            try store.modify(id: id) { record in
                if record == nil || record?.state == .finished {
                    record = local
                } else {
                    change(&record!, now)
                }
            }
        }
    }

    /// Called when a countdown ends, before its done hook runs: a cancelled one is
    /// removed (an overtime one cancelled past its end too), a finished one is
    /// marked finished (for `cdscript clear`).
    func ended(_ tick: Tick, id: String, reason: EndReason) {
        guard Self.storeRecords(reason) else { return }
        let annotations = annotationsByID.isEmpty ? nil : annotationsByID[id]
        if annotations != nil { annotationsByID[id] = nil }
        if copyKeeper != nil { endingRecord = recordAtEnd(tick, id: id, annotations: annotations) }
        defer { endingRecord = nil }
        if reason != .finished, holdDelete(id) { return }
        var now = currentInstant()
        now.wall -= now.boot - tick.instant
        now.boot = tick.instant
        withStore { store in
            if reason != .finished {
                try store.delete(id: id)
            } else {
                try store.modify(id: id) { record in _ = record?.finish(at: now) }
            }
        }
    }

}
