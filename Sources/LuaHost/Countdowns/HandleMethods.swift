import CLua
import CLuaShim
import CountdownCore

/// Methods of a countdown handle: `h:append(s)`, `h:pause()`, `h:resume()`,
/// `h:cancel()`, `h:remaining()`, `h:state()`, and the fields `h.id` and `h.title`.
extension CountdownBinding {
    /// The handle passed as `self`, or an error that explains the colon.
    static func handle(_ L: LuaState, method: String) throws(APIError) -> UnsafeMutablePointer<cd_handle> {
        guard let handle = cd_to_handle(L.raw, 1) else {
            if L.type(at: 1) == LUA_TNONE || L.type(at: 1) != LUA_TUSERDATA {
                throw APIError("\(method): call it as a method with a colon, h:\(method)(...), not h.\(method)(...)")
            }
            throw APIError("\(method): expected a countdown handle as self, got \(L.typeName(at: 1))")
        }
        return handle
    }

    static func key(_ handle: UnsafeMutablePointer<cd_handle>) -> CountdownKey {
        CountdownKey(slot: handle.pointee.slot, generation: handle.pointee.generation)
    }

    static let handleToString: cd_host_function = { L, context in
        LuaHost.hostCall(L, context) { host, L throws(APIError) in
            let handle = try CountdownBinding.handle(L, method: "__tostring")
            lua_getiuservalue(L.raw, 1, CD_UV_ID)
            let id = L.string(at: -1).map { "\"\($0)\"" } ?? "anonymous"
            L.push("countdown \(id) (\(host.countdowns.state(of: handle)))")
            return 1
        }
    }

    func state(of handle: UnsafeMutablePointer<cd_handle>) -> CountdownState {
        scheduler.state(CountdownBinding.key(handle)) ?? CountdownState(rawValue: handle.pointee.final_state) ?? .cancelled
    }

    static let handleAppend: cd_host_function = { L, context in
        LuaHost.hostCall(L, context) { host, L throws(APIError) in
            let handle = try CountdownBinding.handle(L, method: "append")
            // A duration such as "5m" or "-30s", in the grammar `seconds` takes.
            var text: Double?
            if L.type(at: 2) == LUA_TSTRING, let given = L.string(at: 2) {
                do {
                    text = Time.seconds(try DurationRange.change.read(given))
                } catch {
                    throw APIError("append: 'seconds' \(error)")
                }
            }
            guard let seconds = text ?? L.number(at: 2) else {
                throw APIError("append: 'seconds' must be a number, got \(L.typeName(at: 2))")
            }
            guard !seconds.isNaN else {
                throw APIError("append: 'seconds' must be a number of seconds, got nan")
            }
            // A negative amount takes time off (issue 29); its size has the bounds of a length.
            if seconds > StartOptions.longestSeconds {
                throw APIError("append: 'seconds' must be at most \(StartOptions.longestText), got \(StartOptions.format(seconds))")
            }
            if seconds < -StartOptions.longestSeconds {
                throw APIError("append: 'seconds' must be at least -\(StartOptions.longestText), got \(StartOptions.format(seconds))")
            }
            guard let size = Time.nanoseconds(fromSeconds: abs(seconds)), size > 0 else {
                throw APIError("append: 'seconds' must be a number of seconds other than 0 (a negative one takes time off), got \(StartOptions.format(seconds))")
            }
            let amount = seconds < 0 ? -size : size
            // The scheduler adds without overflow checks: keep the length within what start accepts.
            let key = CountdownBinding.key(handle)
            // Past the end of an overtime countdown there is nothing left to take off:
            // refused, as a paused one's pause is, with nil and why.
            if amount < 0, host.scheduler.isPastEnd(key) == true {
                L.pushNil()
                L.push("append: \(StoredCountdown.overtimeTakeOffRefusal)")
                return 2
            }
            if amount > 0, let total = host.scheduler.total(key), let remaining = host.scheduler.remaining(key),
               max(total, remaining) > Time.maximumDuration - amount {
                throw APIError("append: the countdown would be longer than \(StartOptions.format(Time.seconds(Time.maximumDuration).rounded(.down))) seconds")
            }
            host.store.willChange(key)
            if amount < 0, let left = host.scheduler.remaining(key), left + amount <= 0 {
                // Taking off all that is left ends it inside append, and its stored
                // copy must say so before on_done runs: stored first, finished.
                host.store.takeOffThatEnds(key, size: -amount)
                host.scheduler.append(key, amount)
            } else if host.scheduler.append(key, amount) {
                host.store.change(key) { record, now in
                    // Others' appends to the stored copy may leave less room than this process sees.
                    if let why = record.appendRefusal(amount, at: now) {
                        host.store.reportError("append to '\(VisibleText.escaped(record.id))' was not stored: \(why)")
                    } else {
                        record.append(amount, at: now)
                    }
                }
                // What the countdown shows changes now, not at its next tick.
                host.scheduler.tickNow(key)
            } else if amount < 0 {
                // Nothing is left to take off a countdown that has ended.
            } else {
                // Ended: start again with the same id, hooks and interval.
                try host.countdowns.launch(L, by: host, handleIndex: 1, deadline: .after(amount), restart: true, function: "append")
            }
            L.setTop(1)
            return 1
        }
    }

    static let handlePause: cd_host_function = { L, context in
        LuaHost.hostCall(L, context) { host, L throws(APIError) in
            try host.countdowns.changeState(L, method: "pause", in: { $0.pause($1) }, stored: { record, now in record.pause(at: now) })
        }
    }

    static let handleResume: cd_host_function = { L, context in
        LuaHost.hostCall(L, context) { host, L throws(APIError) in
            try host.countdowns.changeState(L, method: "resume", in: { $0.resume($1) }, stored: { record, now in record.resume(at: now) })
        }
    }

    /// Pause and resume: change the countdown, then its stored copy when it has one;
    /// push whether anything changed.
    private func changeState(
        _ L: LuaState, method: String,
        in scheduler: (Scheduler, CountdownKey) -> Bool,
        stored: (inout StoredCountdown, StoreInstant) -> Void
    ) throws(APIError) -> Int32 {
        let key = CountdownBinding.key(try CountdownBinding.handle(L, method: method))
        host.store.willChange(key)
        let changed = scheduler(self.scheduler, key)
        if changed {
            host.store.change(key, stored)
            // on_tick at once with the frozen or resumed remaining time.
            self.scheduler.tickNow(key)
        }
        L.push(changed)
        return 1
    }

    static let handleCancel: cd_host_function = { L, context in
        LuaHost.hostCall(L, context) { host, L throws(APIError) in
            let handle = try CountdownBinding.handle(L, method: "cancel")
            L.push(host.scheduler.cancel(CountdownBinding.key(handle)))
            return 1
        }
    }

    static let handleRemaining: cd_host_function = { L, context in
        LuaHost.hostCall(L, context) { host, L throws(APIError) in
            let handle = try CountdownBinding.handle(L, method: "remaining")
            lua_pushnumber(L.raw, Time.seconds(host.scheduler.remaining(CountdownBinding.key(handle)) ?? 0))
            return 1
        }
    }

    /// `h.title` (read by the handle's __index, handles.c): the stored title of a
    /// persistent countdown while it runs, as started or fetched (or as another
    /// process stored it since); nil for one without, and once it has ended.
    static let handleTitle: cd_host_function = { L, context in
        LuaHost.hostCall(L, context) { host, L throws(APIError) in
            let handle = try CountdownBinding.handle(L, method: "title")
            let key = CountdownBinding.key(handle)
            guard handle.pointee.persistent != 0, let id = host.store.persistentID(key),
                  let title = host.store.annotationsByID[id]?.title else {
                L.pushNil()
                return 1
            }
            L.push(title)
            return 1
        }
    }

    static let handleState: cd_host_function = { L, context in
        LuaHost.hostCall(L, context) { host, L throws(APIError) in
            let handle = try CountdownBinding.handle(L, method: "state")
            L.push(host.countdowns.state(of: handle).description)
            return 1
        }
    }
}

extension CountdownBinding {
    /// The names of the countdown handle's methods (`h:append`, ...), for tools
    /// such as the annotation check.
    public var handleMethodNames: [String] {
        let L = vm.state
        let base = L.top
        defer { L.setTop(base) }
        L.pushRef(methodsRef)
        var names: [String] = []
        L.pushNil()
        while lua_next(L.raw, -2) != 0 {
            L.pop()
            if let name = L.string(at: -1) { names.append(name) }
        }
        return names.sorted()
    }
}
