import CLua
import CLuaShim
import CountdownCore

/// The global `countdown` table (also `require("cdscript")`).
extension LuaHost {
    func installCountdownLibrary() {
        let L = vm.state
        let base = lua_gettop(L)
        // Handle methods, looked up by the handle metatable's __index.
        lua_createtable(L, 0, 6)
        register([
            ("append", Self.handleAppend),
            ("pause", Self.handlePause),
            ("resume", Self.handleResume),
            ("cancel", Self.handleCancel),
            ("remaining", Self.handleRemaining),
            ("state", Self.handleState),
        ], into: L)
        methodsRef = cd_ref(L)

        cd_push_handle_metatable(L)
        register([("__index", Self.handleIndex), ("__tostring", Self.handleToString)], into: L)
        L.push("locked")
        L.setRawField(-2, "__metatable")
        L.pop()

        lua_createtable(L, 0, 6)
        register([
            ("start", Self.start),
            ("fetch", Self.fetch),
            ("get", Self.get),
            ("list", Self.list),
            ("cancel_all", Self.cancelAll),
            ("format", Self.format),
            ("now", Self.now),
        ], into: L)
        // countdown.on and countdown.formatter are added by the host prelude (HostPrelude.swift).
        lua_pushvalue(L, -1)
        countdownTableRef = cd_ref(L)
        setGlobal("countdown")

        // require("cdscript") returns the same table.
        pushGlobals(L)
        if L.rawField(-1, "package") == LUA_TTABLE, L.rawField(-1, "loaded") == LUA_TTABLE {
            cd_push_ref(L, countdownTableRef)
            L.setRawField(-2, "cdscript")
        }
        lua_settop(L, base)
    }

    static let start: cd_host_function = { L, context in
        hostCall(L, context) { host, L throws(APIError) in
            let options = try StartOptions.read(L, at: 1, host: host)
            let handle = cd_new_handle(L)!
            let handleIndex = lua_gettop(L)
            if let id = options.id { L.push(id) } else { lua_pushnil(L) }
            lua_setiuservalue(L, handleIndex, 1)
            for (hook, slot) in [(options.onTick, Int32(2)), (options.onDone, Int32(3)), (options.onError, Int32(4))] {
                if hook != 0 { lua_pushvalue(L, hook) } else { lua_pushnil(L) }
                lua_setiuservalue(L, handleIndex, slot)
            }
            handle.pointee.every_ns = options.every
            host.setPersistent(options.id, options.persist)
            host.launch(L, handleIndex: handleIndex, deadline: options.deadline)
            return 1
        }
    }

    /// Starts the countdown described by the handle at `handleIndex` (its user
    /// values hold id and hooks), keeps a reference to it for the run, and fires its first tick.
    /// `resuming` is set for a countdown picked up from the store.
    func launch(_ L: OpaquePointer, handleIndex: Int32, deadline: Deadline, resuming: (length: Nanoseconds, paused: Bool)? = nil) {
        let handle = cd_to_handle(L, handleIndex)!
        lua_getiuservalue(L, handleIndex, 1)
        let id = L.string(at: -1)
        // Global tick hooks see the ticks of countdowns started after they were added.
        let hasTick = lua_getiuservalue(L, handleIndex, 2) != LUA_TNIL || tickHookCount != 0
        L.pop(2)
        let flags = UInt8(cd_hook_flags(L, handleIndex))
        lua_pushvalue(L, handleIndex)
        let ref = cd_ref(L)

        let spec = CountdownSpec(id: id, deadline: deadline, every: handle.pointee.every_ns, wantsTicks: hasTick, length: resuming?.length)
        let key = scheduler.start(spec)
        handle.pointee.slot = key.slot
        handle.pointee.generation = key.generation
        handle.pointee.final_state = CountdownState.running.rawValue
        let slot = Int(key.slot)
        if slot >= slots.count {
            slots.append(contentsOf: repeatElement(SlotHooks(), count: slot - slots.count + 1))
        }
        slots[slot] = SlotHooks(handleRef: ref, flags: flags)
        if let resuming {
            if resuming.paused { scheduler.pause(key) }
        } else {
            storeStarted(key, id: id)
        }
        if startHookCount != 0 {
            callGlobalHooks(.start, handleRef: ref, remaining: scheduler.remaining(key) ?? 0, total: scheduler.total(key) ?? 0, missed: 0)
        }
        scheduler.announce(key)
    }

    static let get: cd_host_function = { L, context in
        hostCall(L, context) { host, L throws(APIError) in
            guard let id = L.string(at: 1) else {
                throw APIError("countdown.get: 'id' must be a string, got \(L.typeName(at: 1))")
            }
            if let key = host.scheduler.key(forID: id) {
                cd_push_ref(L, host.slots[Int(key.slot)].handleRef)
            } else {
                lua_pushnil(L)
            }
            return 1
        }
    }

    static let list: cd_host_function = { L, context in
        hostCall(L, context) { host, L throws(APIError) in
            let keys = host.scheduler.activeKeys
            lua_createtable(L, Int32(keys.count), 0)
            for (i, key) in keys.enumerated() {
                cd_push_ref(L, host.slots[Int(key.slot)].handleRef)
                lua_rawseti(L, -2, lua_Integer(i + 1))
            }
            return 1
        }
    }

    static let cancelAll: cd_host_function = { L, context in
        hostCall(L, context) { host, L throws(APIError) in
            host.scheduler.cancelAll()
            return 0
        }
    }

    /// `countdown.now()`: the wall clock in seconds since the epoch, with
    /// fractions; inside a hook, the instant of its tick; the virtual clock's
    /// under `cdscript test`.
    static let now: cd_host_function = { L, context in
        hostCall(L, context) { host, L throws(APIError) in
            let clock = host.scheduler.clock
            let wall = host.scheduler.now + (clock.wallNow() - clock.bootNow())
            lua_pushnumber(L, Time.seconds(wall))
            return 1
        }
    }

    static let format: cd_host_function = { L, context in
        hostCall(L, context) { host, L throws(APIError) in
            let fn = "countdown.format"
            let ns: Nanoseconds
            if let tick = cd_to_tick(L, 1) {
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
            if let text = try host.applyFormatter(L, remaining: ns) {
                L.push(text)
                return 1
            }
            let pattern: FormatPattern
            if let cached = host.patterns[patternText] {
                pattern = cached
            } else {
                do {
                    pattern = try FormatPattern(patternText)
                } catch {
                    throw APIError("\(fn): \(error)")
                }
                if host.patterns.count > 256 { host.patterns.removeAll() }
                host.patterns[patternText] = pattern
            }
            L.push(pattern.render(ns))
            return 1
        }
    }
}
