import CLua
import CLuaShim
import CountdownCore

/// Persistent countdowns: `countdown.start{ id =, persist = true, ... }`,
/// `countdown.fetch(id, { every =, on_tick =, on_done = })`, and the store updates
/// behind append, pause, resume, cancel and the end.
///
/// Every change is committed to `persistence` before the call that made it returns,
/// so before the next hook runs. A store that cannot be used never stops a script:
/// the error is reported once (naming the file), counted in `storeErrorCount`,
/// and the countdowns run on in memory.
extension LuaHost {
    static let fetchFields: Set<String> = ["every", "on_tick", "on_done"]

    /// One instant read from every clock a stored countdown needs. While a hook
    /// runs it is the hook's tick instant, like `scheduler.now`.
    func storeNow() -> StoreInstant {
        let boot = scheduler.now
        let clock = scheduler.clock
        return StoreInstant(boot: boot, wall: clock.wallNow() - (clock.bootNow() - boot), bootID: bootID)
    }

    /// The store, or nil after reporting why there is none.
    func store() -> CountdownPersistence? {
        if persistence == nil { reportStoreError("no countdown store is configured for this run") }
        return persistence
    }

    /// Runs one store operation; a failure is reported (once per distinct message)
    /// and turned into nil.
    @discardableResult
    func withStore<T>(_ body: (CountdownPersistence) throws -> T) -> T? {
        guard let store = store() else { return nil }
        do {
            return try body(store)
        } catch {
            reportStoreError("\(error)")
            return nil
        }
    }

    func reportStoreError(_ message: String) {
        lastStoreError = message
        guard reportedStoreErrors.insert(message).inserted else { return }
        storeErrorCount += 1
        reportError("cdscript: \(message); persistent countdowns run on without the store")
    }

    /// The record of a running or paused countdown as this process sees it.
    func storedRecord(_ key: CountdownKey, id: String, now: StoreInstant) -> StoredCountdown? {
        guard let state = scheduler.state(key), let bootDeadline = scheduler.bootDeadline(key),
              let every = scheduler.every(key), let total = scheduler.total(key) else { return nil }
        let followsWall = scheduler.followsWallClock(key) ?? false
        let wallDeadline = followsWall ? (scheduler.wallDeadline(key) ?? now.wall) : now.wall + (bootDeadline - now.boot)
        return StoredCountdown(
            id: id, state: state == .paused ? .paused : .running, kind: followsWall ? .wall : .duration,
            wallDeadline: wallDeadline, pausedRemaining: state == .paused ? scheduler.remaining(key) : nil,
            every: every, total: total, bootID: bootID, bootDeadline: state == .paused ? nil : bootDeadline,
            updatedAt: now.wall)
    }

    /// The id of the persistent countdown `key`, while it runs.
    func persistentID(_ key: CountdownKey) -> String? {
        scheduler.state(key) == nil ? nil : persistentIDs[key.slot]
    }

    /// The running persistent countdown stored under `id`, found through the id table.
    public func persistentKey(forID id: String) -> CountdownKey? {
        guard persistentIDs.count != 0 else { return nil }
        let L = current
        L.push(id)
        cd_push_handle_for_id(L.raw, vm.hookCaller, L.top)
        let handle = cd_to_handle(L.raw, -1)
        L.pop(2)
        guard let handle, handle.pointee.persistent != 0 else { return nil }
        let key = LuaHost.key(handle)
        return persistentID(key)?.sameBytes(as: id) == true ? key : nil
    }

    /// Called by `launch` once a persistent countdown exists and before its first tick.
    func storeStarted(_ key: CountdownKey, id: String) {
        guard let record = storedRecord(key, id: id, now: storeNow()) else { return }
        withStore { try $0.save(record) }
    }

    /// Applies a change made to a running countdown to its stored record. When the
    /// record is gone (removed by `cdscript cancel`, say), this process's view is stored.
    func storeChange(_ key: CountdownKey, _ change: (inout StoredCountdown, StoreInstant) -> Void) {
        guard let id = persistentID(key) else { return }
        let now = storeNow()
        let local = storedRecord(key, id: id, now: now)
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
    /// removed, a finished one is marked finished (for `cdscript clear`).
    func storeEnded(_ tick: Tick, id: String, reason: EndReason) {
        guard reason == .finished || reason == .cancelled else { return }
        var now = storeNow()
        now.wall -= now.boot - tick.instant
        now.boot = tick.instant
        withStore { store in
            if reason == .cancelled {
                try store.delete(id: id)
            } else {
                try store.modify(id: id) { record in _ = record?.finish(at: now) }
            }
        }
    }

    static let fetch: cd_host_function = { L, context in
        hostCall(L, context) { host, L throws(APIError) in
            let fn = "countdown.fetch"
            guard L.type(at: 1) == LUA_TSTRING, lua_rawlen(L.raw, 1) != 0 else {
                throw APIError("\(fn): expected an id string as argument 1, got \(L.typeName(at: 1))")
            }
            guard let id = StartOptions.storableID(L, at: 1) else {
                throw APIError("\(fn): stored ids are UTF-8 text without NUL bytes, got \(StartOptions.quotedBytes(L, at: 1))")
            }
            func interval(_ seconds: Double) throws(APIError) -> Nanoseconds {
                guard let ns = Time.nanoseconds(fromSeconds: seconds), ns >= StartOptions.minimumEvery else {
                    throw APIError("\(fn): 'every' must be at least 0.1 seconds, got \(StartOptions.format(seconds))")
                }
                return ns
            }
            var every: Nanoseconds?
            var onTick: Int32 = 0, onDone: Int32 = 0
            var quick = cd_start_options()
            var isQuick = false
            switch L.type(at: 2) {
            case LUA_TNONE, LUA_TNIL:
                // No options: nothing found, nothing left on the stack.
                L.setTop(2)
                quick.base = 2
                isQuick = true
            case LUA_TTABLE where cd_fetch_read(L.raw, host.vm.hookCaller, 2, &quick) != 0:
                // Plain options, read in one pass in C: on_tick and on_done are left on the stack.
                if quick.has_every != 0 { every = try interval(quick.every) }
                isQuick = true
            case LUA_TTABLE:
                try StartOptions.checkFieldNames(L, at: 2, allowed: fetchFields, function: fn)
                if let value = try StartOptions.optionalNumber(L, 2, "every", fn) { every = try interval(value) }
                onTick = try StartOptions.hook(L, 2, "on_tick", fn)
                onDone = try StartOptions.hook(L, 2, "on_done", fn)
            default:
                throw APIError("\(fn): expected a table of options such as {on_tick = f} as argument 2, got \(L.typeName(at: 2))")
            }

            let now = host.storeNow()
            guard let found = host.withStore({ try $0.load(id: id) }) else {
                L.pushNil()
                L.push("unavailable")
                L.push(host.lastStoreError ?? "the countdown store is unavailable")
                return 3
            }
            guard let record = found else {
                L.pushNil()
                L.push("unknown")
                return 2
            }
            let deadline: Deadline
            var paused = false
            switch record.resumption(at: now) {
            case .finished:
                if record.state != .finished {
                    host.withStore { store in try store.modify(id: id) { _ = $0?.finish(at: now, tolerance: 0) } }
                }
                L.pushNil()
                L.push("finished")
                return 2
            case .running(let d, remaining: _):
                deadline = d
            case .paused(let remaining):
                deadline = record.kind == .wall ? .wall(now.wall + remaining) : .after(remaining)
                paused = true
            }

            if isQuick {
                // The handle as a start's quick path makes it, in one C call.
                var flags: Int32 = 0, sharedTickHook: Int32 = 0, ref: Int32 = 0
                var replaced: UnsafeMutablePointer<cd_handle>?
                guard let handle = cd_fetch_handle(L.raw, host.vm.hookCaller, &quick, 1, every ?? record.every, &flags,
                                                   &sharedTickHook, &ref, &replaced) else {
                    throw APIError.noMemoryForID(fn)
                }
                host.storeEvery(every, of: record, id: id)
                host.launch(L, handle: handle, handleIndex: L.top, deadline: deadline, resuming: (record.total, paused),
                            flags: flags, sharedTickHook: sharedTickHook, ref: ref, replaced: replaced, persistentID: id)
                return 1
            }
            let handle = cd_new_handle(L.raw)!
            let handleIndex = L.top
            L.pushValue(at: 1)
            lua_setiuservalue(L.raw, handleIndex, CD_UV_ID)
            // Two calls, not a loop over an array: a fetch should not allocate for it.
            LuaHost.setHookUserValue(L, handleIndex, onTick, slot: CD_UV_TICK)
            LuaHost.setHookUserValue(L, handleIndex, onDone, slot: CD_UV_DONE)
            handle.pointee.every_ns = every ?? record.every
            handle.pointee.persistent = 1
            host.storeEvery(every, of: record, id: id)
            try host.launch(L, handleIndex: handleIndex, deadline: deadline, resuming: (record.total, paused), handle: handle,
                            persistentID: id, function: "countdown.fetch")
            return 1
        }
    }
}

extension LuaHost {
    /// Stores a fetch's `every` when it differs from the stored countdown's.
    fileprivate func storeEvery(_ every: Nanoseconds?, of record: StoredCountdown, id: String) {
        if let every, every != record.every {
            withStore { store in try store.modify(id: id) { $0?.every = every } }
        }
    }

    /// Stores the hook at stack index `hook` (0: none) as user value `slot` of the handle at `handleIndex`.
    @inline(__always)
    fileprivate static func setHookUserValue(_ L: LuaState, _ handleIndex: Int32, _ hook: Int32, slot: Int32) {
        if hook != 0 { L.pushValue(at: hook) } else { L.pushNil() }
        lua_setiuservalue(L.raw, handleIndex, slot)
    }
}

extension StartOptions {
    /// Reads `persist`: a boolean, and only with an id to store the countdown under,
    /// which must be text (see `storableID`): the store never merges two ids.
    static func persistOption(_ L: LuaState, _ index: Int32, idIndex: Int32, _ fn: String) throws(APIError) -> Bool {
        let type = L.rawField(index, "persist")
        defer { L.pop() }
        if type == LUA_TNIL { return false }
        guard type == LUA_TBOOLEAN else {
            throw APIError("\(fn): 'persist' must be true or false, got \(L.typeName(at: -1))")
        }
        let persist = lua_toboolean(L.raw, -1) != 0
        if persist && idIndex == 0 {
            throw APIError("\(fn): 'persist = true' needs an 'id', the name the countdown is stored and fetched under")
        }
        if persist && storableID(L, at: idIndex) == nil {
            throw APIError("\(fn): a persistent countdown's 'id' must be UTF-8 text without NUL bytes (it is stored, and named on the command line), got \(quotedBytes(L, at: idIndex))")
        }
        return persist
    }
}
