import CLua
import CLuaShim
import CountdownCore

/// `countdown.fetch(id, { every =, on_tick =, on_done = })`: a stored countdown,
/// running again in this process; and `persist`, the start option that stores one.
/// A fetch's `every` is this viewer's own tick interval: the stored one is left
/// as it is, for the next process that fetches without one.
extension StoreBinding {
    static let fetchFields: Set<String> = Set(["every", "on_tick", "on_done"]).union(StartOptions.endActionFields)

    static let fetch: cd_host_function = { L, context in
        LuaHost.hostCall(L, context) { host, L throws(APIError) in
            let fn = "countdown.fetch"
            guard L.type(at: 1) == LUA_TSTRING, lua_rawlen(L.raw, 1) != 0 else {
                throw APIError("\(fn): expected an id string as argument 1, got \(L.typeName(at: 1))")
            }
            guard let id = StartOptions.storableID(L, at: 1) else {
                throw APIError("\(fn): stored ids are UTF-8 text without NUL bytes, got \(StartOptions.quotedBytes(L, at: 1))")
            }
            var every: Nanoseconds?
            var onTick: Int32 = 0, onDone: Int32 = 0
            var endAction: Int32 = 0, endLease = StartOptions.defaultEndLease
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
                if quick.has_every != 0 { every = try StartOptions.every(seconds: quick.every, fn) }
                isQuick = true
            case LUA_TTABLE:
                try StartOptions.checkFieldNames(L, at: 2, allowed: fetchFields, function: fn)
                every = try StartOptions.optionalEvery(L, 2, fn)
                onTick = try StartOptions.hook(L, 2, "on_tick", fn)
                onDone = try StartOptions.hook(L, 2, "on_done", fn)
                (endAction, endLease) = try StartOptions.endActionOption(L, 2, persistent: true, fn)
            default:
                throw APIError("\(fn): expected a table of options such as {on_tick = f} as argument 2, got \(L.typeName(at: 2))")
            }

            let now = host.store.currentInstant()
            guard let found = host.store.withStore({ try $0.load(id: id) }) else {
                L.pushNil()
                L.push("unavailable")
                L.push(host.store.lastError ?? "the countdown store is unavailable")
                return 3
            }
            guard let record = found else {
                if endAction != 0 { cd_unref(L.raw, endAction) }
                L.pushNil()
                L.push("unknown")
                return 2
            }
            if record.overtime, endAction != 0 {
                cd_unref(L.raw, endAction)
                throw APIError("\(fn): '\(VisibleText.escaped(id))' is an overtime countdown: \(StartOptions.overtimeEndActionRefusal)")
            }
            let deadline: Deadline
            var paused = false
            switch record.resumption(at: now) {
            case .finished:
                if endAction != 0 { cd_unref(L.raw, endAction) }
                if record.state != .finished {
                    host.store.withStore { store in try store.modify(id: id) { _ = $0?.finish(at: now, tolerance: 0) } }
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

            // An overtime countdown runs on past its end; picked up after it, its
            // end (heard by the processes that ran it then) is not reported again.
            let overtime: CountdownBinding.Overtime? = record.overtime ? (record.isPastEnd(at: now) ? .pastEnd : .beforeEnd) : nil
            // Kept as a start keeps them: `h.title` reads the title, and a record this
            // process writes again (say, after `cdscript cancel` removed it) keeps both.
            let annotations = StoredAnnotations(title: record.title, actions: record.actions)
            if isQuick {
                // The handle as a start's quick path makes it, in one C call.
                var flags: Int32 = 0, sharedTickHook: Int32 = 0, ref: Int32 = 0
                var replaced: UnsafeMutablePointer<cd_handle>?
                guard let handle = cd_fetch_handle(L.raw, host.vm.hookCaller, &quick, 1, every ?? record.every, &flags,
                                                   &sharedTickHook, &ref, &replaced) else {
                    throw APIError.noMemoryForID(fn)
                }
                host.countdowns.launch(L, by: host, handle: handle, handleIndex: L.top, deadline: deadline, resuming: (record.total, paused),
                            flags: flags, sharedTickHook: sharedTickHook, ref: ref, replaced: replaced, persistentID: id,
                                             overtime: overtime, annotations: annotations)
                return 1
            }
            let handle = cd_new_handle(L.raw)!
            let handleIndex = L.top
            L.pushValue(at: 1)
            lua_setiuservalue(L.raw, handleIndex, CD_UV_ID)
            // Two calls, not a loop over an array: a fetch should not allocate for it.
            StoreBinding.setHookUserValue(L, handleIndex, onTick, slot: CD_UV_TICK)
            StoreBinding.setHookUserValue(L, handleIndex, onDone, slot: CD_UV_DONE)
            handle.pointee.every_ns = every ?? record.every
            handle.pointee.persistent = 1
            try host.countdowns.launch(L, by: host, handleIndex: handleIndex, deadline: deadline, resuming: (record.total, paused), handle: handle,
                            persistentID: id, overtime: overtime, annotations: annotations, function: "countdown.fetch")
            host.store.setEndAction(endAction, lease: endLease, for: CountdownBinding.key(handle))
            return 1
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
