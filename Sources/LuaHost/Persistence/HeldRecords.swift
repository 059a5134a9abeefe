import CLuaShim
import CountdownCore

/// The countdowns run here, for a store that keeps no copy of them
/// (`HandsOverHeldCountdowns`: Redis). Issue 53: the Redis store kept what it
/// last saw of every countdown a process ran, 80 bytes each beside the
/// process's own; it asks this process for them instead.
///
/// While the server is out of reach, such a store computes a change from what
/// it last saw and queues both records; they are rebased on what the server
/// holds when sent. So what it is given for a countdown being changed must be
/// the record as it was before the change, but the scheduler is changed first:
/// `willChange` keeps that record (only for such a store), and `change` hands
/// it over. An ending countdown is gone from the scheduler when the store is
/// told: its record is made from the end's tick (`recordAtEnd`).
extension StoreBinding: HeldCountdowns {
    // Nothing is held once the Lua state is closed (the store is told before: `LuaHost.closeState`).
    public func holds(id: String) -> Bool {
        !vm.isClosed && persistentKey(forID: id) != nil
    }

    public func heldRecord(id: String) -> StoredCountdown? {
        guard !vm.isClosed else { return nil }
        if let changingRecord, changingRecord.id == id { return changingRecord }
        if let endingRecord, endingRecord.id == id { return endingRecord }
        guard let key = persistentKey(forID: id) else { return nil }
        return storedRecord(key, id: id, now: currentInstant())
    }

    public var heldIDs: [String] { vm.isClosed ? [] : allPersistentIDs }

    /// A countdown fetched from the store runs here from now on.
    func fetched(_ id: String) {
        copyKeeper?.handedOver(id: id)
    }

    /// Called before the scheduler changes `key` (append, pause, resume): keeps its
    /// record as it is now, for `change` to hand the store. Inlined to the one test
    /// most callers stop at (no store that wants it: no call at all).
    @inline(__always)
    func willChange(_ key: CountdownKey) {
        if copyKeeper != nil { keepRecordBeforeChange(key) }
    }

    private func keepRecordBeforeChange(_ key: CountdownKey) {
        guard let id = persistentID(key), let record = storedRecord(key, id: id, now: currentInstant()) else { return }
        recordsBeforeChange[key.slot] = (key.generation, record)
    }

    /// The record `willChange` kept for `key`, taken (nil when none was, or for another countdown in its slot).
    func takeRecordBeforeChange(_ key: CountdownKey) -> StoredCountdown? {
        guard !recordsBeforeChange.isEmpty, let kept = recordsBeforeChange.removeValue(forKey: key.slot),
              kept.generation == key.generation else { return nil }
        return kept.record
    }

    /// The record of the countdown ending at `tick`, as this process ran it just
    /// before: running, its end `tick.remaining` after the tick (none when it
    /// finished), its total and interval. What the store's change is rebased from.
    func recordAtEnd(_ tick: Tick, id: String, annotations: StoredAnnotations?) -> StoredCountdown {
        let now = endInstant(tick)
        let L = host.current
        L.pushRef(SlotHooks(context: tick.context).handleRef)
        let every = cd_to_handle(L.raw, -1)?.pointee.every_ns ?? Time.nanosecondsPerSecond
        L.pop(1)
        return StoredCountdown(
            id: id, state: .running, kind: .duration, wallDeadline: now.wall + tick.remaining, every: every,
            total: tick.total, bootID: bootID, bootDeadline: now.boot + tick.remaining, updatedAt: now.wall,
            title: annotations?.title, actions: annotations?.actions ?? [])
    }
}
