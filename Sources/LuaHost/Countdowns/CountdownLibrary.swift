import CLua
import CLuaShim
import CountdownCore

/// The global `countdown` table (also `require("cdscript")`).
extension CountdownBinding {
    func install() {
        let L = vm.state
        let base = L.top
        // Handle methods, looked up by the handle metatable's __index.
        L.pushTable(fields: 6)
        host.register([
            ("append", Self.handleAppend),
            ("pause", Self.handlePause),
            ("resume", Self.handleResume),
            ("cancel", Self.handleCancel),
            ("remaining", Self.handleRemaining),
            ("state", Self.handleState),
        ], into: L)
        methodsRef = L.ref()

        cd_push_handle_metatable(L.raw)
        host.register([("__tostring", Self.handleToString)], into: L)
        L.pushRef(methodsRef)
        L.pushHostFunction(Self.handleTitle, context: host.context)
        cd_push_handle_index(L.raw)
        L.setRawField(-2, "__index")
        L.push("locked")
        L.setRawField(-2, "__metatable")
        L.pop()

        L.pushTable(fields: 6)
        host.register([
            ("start", Self.start),
            ("fetch", StoreBinding.fetch),
            ("get", Self.get),
            ("list", Self.list),
            ("cancel_all", Self.cancelAll),
            ("format", Self.format),
            ("now", Self.now),
            ("end_actions", StoreBinding.pendingFunction),
            ("duration", Self.duration),
        ], into: L)
        // The shortest `every`, in seconds, for scripts that check their own
        // options (the timer's --every) against the bound countdown.start holds.
        lua_pushnumber(L.raw, Time.seconds(StartOptions.minimumEvery))
        L.setRawField(-2, "shortest_every")
        // countdown.on and countdown.formatter are added by the host prelude (HostPrelude.swift).
        L.pushValue(at: -1)
        tableRef = L.ref()
        host.setGlobal("countdown")

        // require("cdscript") returns the same table.
        L.pushGlobals()
        if L.rawField(-1, "package") == LUA_TTABLE, L.rawField(-1, "loaded") == LUA_TTABLE {
            L.pushRef(tableRef)
            L.setRawField(-2, "cdscript")
        }
        L.setTop(base)
    }

    static let start: cd_host_function = { L, context in
        LuaHost.hostCall(L, context) { host, L throws(APIError) in
            let caller = host.vm.hookCaller
            // The common start in two C calls (one pass over the table, then the
            // handle); anything unusual, errors included, is read the long way below.
            var quick = cd_start_options()
            if cd_start_read(L.raw, caller, 1, &quick) != 0 {
                let every = quick.has_every != 0 ? Time.nanoseconds(fromSeconds: quick.every) : Time.nanosecondsPerSecond
                if let seconds = Time.nanoseconds(fromSeconds: quick.seconds), seconds > 0,
                   let every, every >= StartOptions.minimumEvery {
                    var flags: Int32 = 0
                    var sharedTickHook: Int32 = 0
                    var ref: Int32 = 0
                    var replaced: UnsafeMutablePointer<cd_handle>?
                    guard let handle = cd_start_handle(L.raw, caller, &quick, every, &flags, &sharedTickHook, &ref, &replaced) else {
                        throw APIError.noMemoryForID("countdown.start")
                    }
                    host.countdowns.launch(L, by: host, handle: handle, handleIndex: L.top, deadline: .after(seconds), flags: flags,
                                sharedTickHook: sharedTickHook, ref: ref, replaced: replaced)
                    return 1
                }
                L.setTop(quick.base)
            }
            let options = try StartOptions.read(L, at: 1, host: host)
            let handle = cd_new_handle(L.raw)!
            let handleIndex = L.top
            for (value, slot) in [(options.idIndex, CD_UV_ID), (options.onTick, CD_UV_TICK), (options.onDone, CD_UV_DONE), (options.onError, CD_UV_ERROR)] where value != 0 {
                L.pushValue(at: value)
                lua_setiuservalue(L.raw, handleIndex, slot)
            }
            handle.pointee.every_ns = options.every
            handle.pointee.persistent = options.persist ? 1 : 0
            try host.countdowns.launch(L, by: host, handleIndex: handleIndex, deadline: options.deadline, handle: handle,
                                       overtime: options.overtime ? .beforeEnd : nil, annotations: options.annotations)
            host.store.setEndAction(options.endAction, lease: options.endLease, for: CountdownBinding.key(handle))
            return 1
        }
    }

    /// Starts the countdown described by the handle at `handleIndex` (its user
    /// values hold id and hooks), keeps a reference to it for the run, and fires its first tick.
    /// `resuming` is set for a countdown picked up from the store; `restart` for
    /// an ended one started again (`h:append`), which takes over no countdown of
    /// a reloaded script's previous version.
    /// Throws only when there is no memory to keep the id; `function` names the
    /// caller in that message. `host` is this part's host, as the host function
    /// that launches holds it (a guaranteed reference: no load of `self.host`).
    func launch(_ L: LuaState, by host: LuaHost, handleIndex: Int32, deadline: Deadline, resuming: (length: Nanoseconds, paused: Bool)? = nil,
                handle: UnsafeMutablePointer<cd_handle>? = nil, persistentID: String? = nil, overtime: Overtime? = nil,
                annotations: StoredAnnotations = StoredAnnotations(),
                restart: Bool = false, function: String = "countdown.start") throws(APIError) {
        let handle = handle ?? cd_to_handle(L.raw, handleIndex)!
        let flags = cd_hook_flags(L.raw, vm.hookCaller, handleIndex)
        L.pushValue(at: handleIndex)
        let ref = cd_ref_handle(L.raw, vm.hookCaller)
        var replaced: UnsafeMutablePointer<cd_handle>?
        guard cd_bind_id(L.raw, vm.hookCaller, handleIndex, ref, &replaced) != 0 else {
            cd_unref_handle(L.raw, vm.hookCaller, ref)
            throw APIError.noMemoryForID(function)
        }
        let sharedTickHook = cd_share_tick_hook(L.raw, vm.hookCaller, handleIndex, flags)
        launch(L, by: host, handle: handle, handleIndex: handleIndex, deadline: deadline, resuming: resuming, flags: flags,
               sharedTickHook: sharedTickHook, ref: ref, replaced: replaced, persistentID: persistentID, overtime: overtime,
               annotations: annotations, takingOver: !restart)
    }

    /// `launch` with the handle's `cd_hook_flags` and `cd_share_tick_hook` number
    /// known, its reference `ref` (cd_ref_handle) taken and its id already bound;
    /// `replaced` is the countdown that held the id until now, ended here as replaced.
    /// A persistent countdown's id is `persistentID`, or else read from the handle.
    /// While a reloaded script's main chunk runs, a launch `takingOver` goes on
    /// from the previous version's countdown of that id (or the next anonymous one).
    func launch(_ L: LuaState, by host: LuaHost, handle: UnsafeMutablePointer<cd_handle>, handleIndex: Int32, deadline: Deadline,
                resuming: (length: Nanoseconds, paused: Bool)? = nil, flags: Int32, sharedTickHook: Int32,
                ref: Int32, replaced: UnsafeMutablePointer<cd_handle>?, persistentID: String? = nil, overtime: Overtime? = nil,
                annotations: StoredAnnotations = StoredAnnotations(), takingOver: Bool = true) {
        assert(host === self.host, "launch(_:by:) takes this part's own host")
        var flags = flags
        var deadline = deadline, resuming = resuming
        var pausedBySpace = false
        // A reloaded script taking over a countdown of its previous version.
        if takingOver, let carryOver, let carried = carryOver.claim(id: storedID(L, handleIndex: handleIndex)) {
            deadline = carried.deadline
            resuming = (carried.total, carried.paused)
            pausedBySpace = carried.pausedBySpace
        }
        let persistent = handle.pointee.persistent != 0
        if persistent { flags |= Int32(CD_HOOK_PERSISTENT) }
        if let replaced, scheduler.cancel(CountdownBinding.key(replaced), reason: .replaced) {
            replaced.pointee.final_state = CountdownState.cancelled.rawValue
        }
        // Global tick hooks see the ticks of countdowns started after they were added.
        let hasTick = flags & Int32(CD_HOOK_HAS_TICK) != 0 || plugins.tickHookCount != 0
        let hooks = SlotHooks(handleRef: ref, flags: UInt8(truncatingIfNeeded: flags), sharedTickHook: UInt8(truncatingIfNeeded: sharedTickHook))
        // The fields as arguments, not a CountdownSpec: building one cost a copy of it per start.
        // No id: the host's id table replaces countdowns by id, and store.persistentIDs
        // marks the stored ones by slot, neither of them hashing the id as a Swift String.
        let key = scheduler.start(id: nil, deadline: deadline, every: handle.pointee.every_ns, wantsTicks: hasTick,
                                  length: resuming?.length, context: hooks.context)
        handle.pointee.slot = key.slot
        handle.pointee.generation = key.generation
        handle.pointee.final_state = CountdownState.running.rawValue
        // Before it is stored and before its first tick, so that both know it runs on past its end.
        if let overtime { scheduler.allowOvertime(key, endPassed: overtime == .pastEnd) }
        if persistent, let id = persistentID ?? storedID(L, handleIndex: handleIndex) {
            store.persistentIDs.set(slot: key.slot)
            store.setAnnotations(annotations, forID: id)
            if resuming == nil { store.started(key, id: id) } else { store.fetched(id) }
        }
        if let resuming, resuming.paused { scheduler.pause(key) }
        if pausedBySpace { host.view?.pausedBySpace.append(key) }
        if plugins.startHookCount != 0 {
            plugins.callGlobalHooks(.start, handleRef: ref, remaining: scheduler.remaining(key) ?? 0, total: scheduler.total(key) ?? 0, missed: 0)
        }
        scheduler.announce(key, to: host)
    }

    /// How a countdown started with `overtime` is launched.
    enum Overtime {
        /// Its end is still to come (or is reported by its first tick).
        case beforeEnd
        /// Picked up from the store past its end: the end is not reported again.
        case pastEnd
    }

    /// A persistent countdown's id, which is text (see StartOptions), from its handle.
    private func storedID(_ L: LuaState, handleIndex: Int32) -> String? {
        lua_getiuservalue(L.raw, handleIndex, CD_UV_ID)
        defer { L.pop() }
        return L.string(at: -1)
    }

    static let get: cd_host_function = { L, context in
        LuaHost.hostCall(L, context) { host, L throws(APIError) in
            guard L.type(at: 1) == LUA_TSTRING else {
                throw APIError("countdown.get: 'id' must be a string, got \(L.typeName(at: 1))")
            }
            cd_push_handle_for_id(L.raw, host.vm.hookCaller, 1)
            return 1
        }
    }

    static let list: cd_host_function = { L, context in
        LuaHost.hostCall(L, context) { host, L throws(APIError) in
            let keys = host.scheduler.activeKeys
            L.pushTable(array: Int32(keys.count))
            for (i, key) in keys.enumerated() {
                cd_push_ref(L.raw, SlotHooks(context: host.scheduler.context(key) ?? 0).handleRef)
                L.setRawItem(-2, i + 1)
            }
            return 1
        }
    }

    static let cancelAll: cd_host_function = { L, context in
        LuaHost.hostCall(L, context) { host, L throws(APIError) in
            // The stored ones are removed together when every countdown is cancelled (HeldDeletes.swift).
            host.store.removingTogether { host.scheduler.cancelAll() }
            return 0
        }
    }

    /// `countdown.now()`: the wall clock in seconds since the epoch, with
    /// fractions; inside a hook, the instant of its tick; the virtual clock's
    /// under `cdscript test`.
    static let now: cd_host_function = { L, context in
        LuaHost.hostCall(L, context) { host, L throws(APIError) in
            let scheduler = host.scheduler
            let clock = scheduler.clock
            // Outside a hook the wall clock, read once (a script may call this per item
            // of a long loop); inside one, the tick's instant on the wall clock.
            let wall = scheduler.isDispatching ? scheduler.now + (clock.wallNow() - clock.bootNow()) : clock.wallNow()
            lua_pushnumber(L.raw, Time.seconds(wall))
            return 1
        }
    }

    /// `countdown.duration("1h30m")` → 5400, `countdown.duration("-5m")` → -300: a
    /// duration in the one grammar every place takes (`seconds`, `every`,
    /// `h:append`, the command line), as seconds; a number is returned as it is.
    /// Raises an error naming the forms for anything else.
    static let duration: cd_host_function = { L, context in
        LuaHost.hostCall(L, context) { host, L throws(APIError) in
            let fn = "countdown.duration"
            if L.type(at: 1) == LUA_TNUMBER, let seconds = L.number(at: 1) {
                lua_pushnumber(L.raw, seconds)
                return 1
            }
            guard L.type(at: 1) == LUA_TSTRING, let text = L.string(at: 1) else {
                throw APIError("\(fn): expected a duration such as \"25m\" or a number of seconds, got \(L.typeName(at: 1))")
            }
            let value: Nanoseconds
            do throws(DeadlineParseError) {
                value = try DeadlineParser.parseSignedDuration(text)
            } catch {
                // The text quoted short: a megabyte given is not a megabyte of message.
                let shown = DurationRangeError.shown(text)
                if case .durationTooLong = error { throw APIError("\(fn): \(DeadlineParseError.durationTooLong(shown))") }
                throw APIError("\(fn): \(DeadlineParseError.malformedDuration(shown))")
            }
            lua_pushnumber(L.raw, Time.seconds(value))
            return 1
        }
    }

    static let format: cd_host_function = { L, context in
        LuaHost.hostCall(L, context) { host, L throws(APIError) in
            let fn = "countdown.format"
            let ns: Nanoseconds
            if let tick = cd_to_tick(L.raw, 1) {
                ns = tick.pointee.remaining_ns
            } else {
                let remaining: Double
                if let seconds = L.number(at: 1) {
                    remaining = seconds
                } else if L.type(at: 1) == LUA_TTABLE {
                    guard L.rawField(1, "remaining") == LUA_TNUMBER else {
                        throw APIError("\(fn): the table given has no numeric 'remaining' field")
                    }
                    remaining = L.number(at: -1)!
                    L.pop()
                } else {
                    throw APIError("\(fn): expected seconds, a tick or a table with a numeric 'remaining' field as argument 1, got \(L.typeName(at: 1))")
                }
                guard remaining.isFinite else {
                    throw APIError("\(fn): seconds must be a finite number, got \(remaining)")
                }
                guard let converted = Time.nanoseconds(fromSeconds: remaining) else {
                    throw APIError("\(fn): seconds must be at most \(StartOptions.longestText) either way, got \(StartOptions.format(remaining))")
                }
                ns = converted
            }
            guard let patternText = L.string(at: 2) else {
                throw APIError("\(fn): expected a pattern string as argument 2, got \(L.typeName(at: 2)) (a formatter name works too)")
            }
            if let text = try host.plugins.applyFormatter(L, remaining: ns) {
                L.push(text)
                return 1
            }
            let pattern: FormatPattern
            if let cached = host.countdowns.patterns[patternText] {
                pattern = cached
            } else {
                do {
                    pattern = try FormatPattern(patternText)
                } catch {
                    throw APIError("\(fn): \(error)")
                }
                if host.countdowns.patterns.count > 256 { host.countdowns.patterns.removeAll() }
                host.countdowns.patterns[patternText] = pattern
            }
            L.push(pattern.render(ns))
            return 1
        }
    }
}
