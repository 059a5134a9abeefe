import CLua
import CLuaShim
import CountdownCore
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// `on_end_action`: an action that runs once per end of a stored countdown,
/// across every process (and machine) that follows it (docs/stores.md, "One end, one
/// action"). At an end each process with an action records the end and claims
/// it in the store (`EndClaiming`); the one that wins runs the action and marks
/// it done; the others wait for the claimant's lease and take the end over if it
/// passes first. The waiting, the polling of a pending action and the renewing of
/// the lease are Lua (end_actions.lua), on countdowns of their own.
struct EndAction {
    /// Registry reference to the action function.
    var ref: Int32
    var lease: Nanoseconds
    var generation: UInt32
}

/// An end this process claimed, or waits on, handed to the runner after on_done.
struct EndSettlement {
    var action: Int32
    var id: String
    var lease: Nanoseconds
    var outcome: EndClaimOutcome?
    /// Why there is no outcome (the store could not be reached).
    var failure: String?
    /// Why the end cannot be claimed at all (`EndClaimDamage`): reported, not retried.
    var damage: String?
}

extension StartOptions {
    static let endActionFields: Set<String> = ["on_end_action", "end_lease"]
    static let defaultEndLease: Nanoseconds = 30 * Time.nanosecondsPerSecond

    /// Reads `on_end_action` (a function; only with `persist`) and `end_lease`
    /// (seconds, 0.1 to a day) from the options table at `index`. Returns a
    /// registry reference to the action (0: none) and the lease.
    static func endActionOption(_ L: LuaState, _ index: Int32, persistent: Bool, _ fn: String) throws(APIError) -> (ref: Int32, lease: Nanoseconds) {
        var lease = defaultEndLease
        if let seconds = try optionalNumber(L, index, "end_lease", fn) {
            guard let ns = Time.nanoseconds(fromSeconds: seconds), ns >= EndClaimRules.shortestLease, ns <= EndClaimRules.longestLease else {
                throw APIError("\(fn): 'end_lease' must be a number of seconds from 0.1 to 86400, got \(format(seconds))")
            }
            lease = ns
        }
        let type = L.rawField(index, "on_end_action")
        defer { L.pop() }
        if type == LUA_TNIL {
            if L.rawField(index, "end_lease") != LUA_TNIL {
                L.pop()
                throw APIError("\(fn): 'end_lease' is the lease of an 'on_end_action'; give one")
            }
            L.pop()
            return (0, lease)
        }
        guard L.isCallable(at: -1) else {
            throw APIError("\(fn): 'on_end_action' must be a function, got \(L.typeName(at: -1))")
        }
        guard persistent else {
            throw APIError("\(fn): 'on_end_action' runs once per end across the processes that follow a stored countdown: it needs 'persist = true' and an 'id' (use on_done for this process alone)")
        }
        L.pushValue(at: -1)
        return (L.ref(), lease)
    }
}

extension StoreBinding {
    /// Who claims ends for this process: host, process id and a random part.
    static let claimOwner: String = {
        var name = [CChar](repeating: 0, count: 256)
        gethostname(&name, name.count - 1)
        let host = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return "\(host):\(getpid()):\(UUID().uuidString.prefix(8))"
    }()

    /// Keeps the action `ref` for the countdown `key` until its end.
    func setEndAction(_ ref: Int32, lease: Nanoseconds, for key: CountdownKey) {
        guard ref != 0 else { return }
        if let old = endActions.updateValue(EndAction(ref: ref, lease: lease, generation: key.generation), forKey: key.slot) {
            cd_unref(host.current.raw, old.ref)
        }
    }

    /// The persistent countdown in `tick`'s slot, whose handle is registry[`handleRef`],
    /// ended here: the store hears of an end it records (`ended`, or `endWithAction`
    /// when the countdown has an end action). A replaced countdown (its successor
    /// holds the id and the record) and a stopped one leave the record as it is:
    /// their id is not read from the handle at all, which a fetch that replaces
    /// the countdown it picked up before paid on every call (issue 53: 350
    /// instructions of a fetch, mostly a Swift String made of the id).
    /// Inlined to the test a replaced countdown stops at.
    @inline(__always)
    func persistentEnded(_ tick: Tick, handleRef: Int32, reason: EndReason) -> EndSettlement? {
        guard Self.storeRecords(reason) else {
            if !endActions.isEmpty { dropEndAction(tick.key) }
            return nil
        }
        return recordEnd(tick, handleRef: handleRef, reason: reason)
    }

    /// Lets go of the end action of `key`, which ended with no end to record.
    private func dropEndAction(_ key: CountdownKey) {
        if let action = takeEndAction(key) { cd_unref(host.current.raw, action.ref) }
    }

    /// The end action of `key`, taken out of `endActions`; nil when it has none
    /// (an entry of its slot's earlier countdown is taken out all the same).
    private func takeEndAction(_ key: CountdownKey) -> EndAction? {
        guard let action = endActions.removeValue(forKey: key.slot), action.generation == key.generation else { return nil }
        return action
    }

    /// `persistentEnded` for an end the store records.
    private func recordEnd(_ tick: Tick, handleRef: Int32, reason: EndReason) -> EndSettlement? {
        guard let id = handleID(ref: handleRef) else { return nil }
        if endActions.isEmpty {
            ended(tick, id: id, reason: reason)
            return nil
        }
        return endWithAction(tick, id: id, reason: reason)
    }

    /// Whether the store records an end for this reason: a finish marks the record
    /// finished, a cancel removes it; a replacement or a stop leaves it.
    static func storeRecords(_ reason: EndReason) -> Bool {
        reason == .finished || reason == .cancelled || reason == .cancelledPastEnd
    }

    /// At the end of the persistent countdown in `tick`'s slot: records a finished
    /// end and, when the countdown has an end action, claims the end in the same
    /// transaction. Returns what the runner is to do after on_done.
    func endWithAction(_ tick: Tick, id: String, reason: EndReason) -> EndSettlement? {
        guard let action = takeEndAction(tick.key) else {
            ended(tick, id: id, reason: reason)
            return nil
        }
        guard reason == .finished, let claims = persistence as? EndClaiming else {
            cd_unref(host.current.raw, action.ref)
            ended(tick, id: id, reason: reason)
            return nil
        }
        let now = endInstant(tick)
        var settlement = EndSettlement(action: action.ref, id: id, lease: action.lease)
        do {
            settlement.outcome = try claims.recordEndAndClaim(
                id: id, record: { record in _ = record?.finish(at: now) },
                owner: Self.claimOwner, lease: action.lease, now: currentInstant())
        } catch let damage as EndClaimDamage {
            settlement.damage = damage.description
        } catch {
            reportError("\(error)")
            settlement.failure = "\(error)"
        }
        return settlement
    }

    /// The clocks at the instant of `tick` (the end), as `ended` records it.
    func endInstant(_ tick: Tick) -> StoreInstant {
        var now = currentInstant()
        now.wall -= now.boot - tick.instant
        now.boot = tick.instant
        return now
    }

    /// Hands an end to the Lua runner (end_actions.lua), after on_done.
    func settle(_ settlement: EndSettlement) {
        let L = host.current
        let base = L.top
        defer {
            L.setTop(base)
            cd_unref(L.raw, settlement.action)
        }
        if let damage = settlement.damage {
            endClaimFailed(damage, id: settlement.id)
            return
        }
        guard let runner = endActionRunner() else { return }
        L.pushRef(runner)
        L.pushRef(settlement.action)
        L.push(settlement.id)
        lua_pushnumber(L.raw, Time.seconds(settlement.lease))
        // The end's name as the store holds it: renew, finish and a later claim name it so.
        switch settlement.outcome {
        case .won(let claim)?:
            L.push("won")
            lua_pushinteger(L.raw, lua_Integer(claim.token))
            Self.push(claim.name, L)
        case .held(let left, let name)?:
            L.push("held")
            lua_pushnumber(L.raw, Time.seconds(left))
            Self.push(name, L)
        case .done?:
            return
        case .ranWith(let status)?:
            ranElsewhere(status, id: settlement.id)
            return
        case nil:
            L.push("unavailable")
            L.push(settlement.failure ?? "the store is unavailable")
            L.pushNil()
            L.pushNil()
        }
        pendingEndActions += 1
        if cd_pcall_hook(L.raw, 7, 0) != LUA_OK, cd_interrupt_signal() == 0 {
            endActionFailed(L.string(at: -1) ?? "(error object is not a string)", id: settlement.id)
        }
    }

    private static func push(_ name: EndName, _ L: LuaState) {
        lua_pushinteger(L.raw, lua_Integer(name.deadline))
        lua_pushinteger(L.raw, lua_Integer(name.changedAt))
    }

    /// An end that cannot be claimed (its claim keys are damaged): a store
    /// error (the run exits 6), never a wait that asks again forever.
    func endClaimFailed(_ message: String, id: String) {
        errorCount += 1
        host.reportError("cdscript: the end of countdown \"\(VisibleText.escaped(id))\" cannot be claimed, so its end action does not run here: \(VisibleText.escapedKeepingLayout(message))")
    }

    /// The action of an end this process waited on (or came to after it ran) was
    /// run by the process that claimed the end, which recorded its exit status:
    /// this process reports the same outcome, and says where it came from.
    func ranElsewhere(_ status: Int32, id: String) {
        guard status != 0 else { return }
        if endActionStatus == nil { endActionStatus = status }
        host.reportError("cdscript: the end action of countdown \"\(VisibleText.escaped(id))\" ran in another process and exited with status \(status)")
    }

    /// The action of an end this process claimed exited with `status`.
    func ranHere(_ status: Int32) {
        if status != 0, endActionStatus == nil { endActionStatus = status }
    }

    func endActionFailed(_ message: String, id: String) {
        host.hookErrorCount += 1
        host.reportError("cdscript: error in on_end_action of countdown \"\(VisibleText.escaped(id))\": \(VisibleText.escapedKeepingLayout(message))")
    }

    /// The runner's `settle` function, loaded on first use.
    private func endActionRunner() -> Int32? {
        if endRunnerRef != 0 { return endRunnerRef }
        let L = host.current
        guard L.load(Self.endActionsSource, chunkName: "=cdscript/end_actions.lua") == LUA_OK else {
            SetUpStep.failed("cdscript: end_actions.lua does not compile: \(L.string(at: -1) ?? "")")
        }
        L.pushTable(fields: 7)
        host.register([
            ("claim", Self.claimFunction),
            ("renew", Self.renewFunction),
            ("finish", Self.finishFunction),
            ("settled", Self.settledFunction),
            ("failed", Self.failedFunction),
            ("unclaimable", Self.unclaimableFunction),
            ("ran_elsewhere", Self.ranElsewhereFunction),
        ], into: L)
        L.pushRef(host.countdowns.tableRef)
        guard cd_pcall_hook(L.raw, 2, 1) == LUA_OK else {
            host.reportError("cdscript: end_actions.lua: \(L.string(at: -1) ?? "")")
            L.pop()
            return nil
        }
        endRunnerRef = L.ref()
        return endRunnerRef
    }

    static let endActionsSource = String(decoding: PackageResources.end_actions_lua, as: UTF8.self)

    /// Reads an end's name from arguments `index` and `index + 1` (nil: none given).
    private static func nameArgument(_ L: LuaState, _ index: Int32) -> EndName?? {
        if lua_type(L.raw, index) == LUA_TNIL { return .some(nil) }
        var isInteger: Int32 = 0, changedIsInteger: Int32 = 0
        let end = lua_tointegerx(L.raw, index, &isInteger)
        let changed = lua_tointegerx(L.raw, index + 1, &changedIsInteger)
        guard isInteger != 0, changedIsInteger != 0 else { return nil }
        return .some(EndName(deadline: Nanoseconds(end), changedAt: Nanoseconds(changed)))
    }

    /// Reads a claim: id (1), end and changed (2, 3), token (4).
    private static func claimArguments(_ L: LuaState) -> EndClaim? {
        guard let id = L.string(at: 1), case let name?? = nameArgument(L, 2) else { return nil }
        var isInteger: Int32 = 0
        let token = lua_tointegerx(L.raw, 4, &isInteger)
        guard isInteger != 0 else { return nil }
        return EndClaim(id: id, name: name, token: Int64(token))
    }

    /// claim(id, end, changed, lease): "won", token, end, changed | "held", seconds, end, changed | "done" [, exit status]
    /// | "unavailable", message | "damaged", message. end and changed nil: the end the store names now.
    static let claimFunction: cd_host_function = { L, context in
        LuaHost.hostCall(L, context) { host, L throws(APIError) in
            guard let id = L.string(at: 1), case let expected? = nameArgument(L, 2),
                  let claims = host.store.persistence as? EndClaiming else { throw APIError("claim: bad arguments") }
            let lease = Time.nanoseconds(fromSeconds: L.number(at: 4) ?? 30) ?? StartOptions.defaultEndLease
            do {
                switch try claims.claimEnd(id: id, expected: expected, owner: claimOwner, lease: lease, now: host.store.currentInstant()) {
                case .won(let won):
                    L.push("won")
                    lua_pushinteger(L.raw, lua_Integer(won.token))
                    push(won.name, L)
                    return 4
                case .held(let left, let name):
                    L.push("held")
                    lua_pushnumber(L.raw, Time.seconds(left))
                    push(name, L)
                    return 4
                case .done:
                    L.push("done")
                    return 1
                case .ranWith(let status):
                    L.push("done")
                    lua_pushinteger(L.raw, lua_Integer(status))
                    return 2
                }
            } catch let damage as EndClaimDamage {
                L.push("damaged")
                L.push(damage.description)
                return 2
            } catch {
                L.push("unavailable")
                L.push("\(error)")
                return 2
            }
        }
    }

    /// renew(id, end, changed, token, lease): true while the claim is this process's; false, why when it is
    /// not (a damaged or lost claim says why); nil, message when the store cannot be reached.
    static let renewFunction: cd_host_function = { L, context in
        LuaHost.hostCall(L, context) { host, L throws(APIError) in
            guard let claim = claimArguments(L), let claims = host.store.persistence as? EndClaiming else { throw APIError("renew: bad arguments") }
            let lease = Time.nanoseconds(fromSeconds: L.number(at: 5) ?? 30) ?? StartOptions.defaultEndLease
            return pushAnswer(L) { try claims.renewEndClaim(claim, owner: claimOwner, lease: lease, now: host.store.currentInstant()) }
        }
    }

    /// finish(id, end, changed, token, status): true when marked done (with the action's exit status, when
    /// it has one); false, why when another process took the end over (or the claim is damaged or lost);
    /// nil, message when the store cannot be reached.
    static let finishFunction: cd_host_function = { L, context in
        LuaHost.hostCall(L, context) { host, L throws(APIError) in
            guard let claim = claimArguments(L), let claims = host.store.persistence as? EndClaiming else { throw APIError("finish: bad arguments") }
            var isInteger: Int32 = 0
            let given = lua_tointegerx(L.raw, 5, &isInteger)
            let status = isInteger != 0 ? Int32(exactly: given) : nil
            if let status { host.store.ranHere(status) }
            return pushAnswer(L) { try claims.finishEndClaim(claim, owner: claimOwner, status: status, now: host.store.currentInstant()) }
        }
    }

    /// ran_elsewhere(id, status): the end's claimant recorded its action's exit status.
    static let ranElsewhereFunction: cd_host_function = { L, context in
        LuaHost.hostCall(L, context) { host, L throws(APIError) in
            var isInteger: Int32 = 0
            let status = lua_tointegerx(L.raw, 2, &isInteger)
            if isInteger != 0, let status = Int32(exactly: status) { host.store.ranElsewhere(status, id: L.string(at: 1) ?? "?") }
            return 0
        }
    }

    private static func pushAnswer(_ L: LuaState, _ body: () throws -> Bool) -> Int32 {
        do {
            L.push(try body())
            return 1
        } catch let damage as EndClaimDamage {
            L.push(false)
            L.push(damage.description)
            return 2
        } catch {
            L.pushNil()
            L.push("\(error)")
            return 2
        }
    }

    /// unclaimable(id, message): a later claim found the end's claim damaged.
    static let unclaimableFunction: cd_host_function = { L, context in
        LuaHost.hostCall(L, context) { host, L throws(APIError) in
            host.store.endClaimFailed(L.string(at: 2) ?? "?", id: L.string(at: 1) ?? "?")
            return 0
        }
    }

    /// settled(): the runner stopped following one end.
    static let settledFunction: cd_host_function = { L, context in
        LuaHost.hostCall(L, context) { host, _ throws(APIError) in
            host.store.pendingEndActions = max(0, host.store.pendingEndActions - 1)
            return 0
        }
    }

    /// failed(id, message): an action raised, or could not be marked done.
    static let failedFunction: cd_host_function = { L, context in
        LuaHost.hostCall(L, context) { host, L throws(APIError) in
            host.store.endActionFailed(L.string(at: 2) ?? "?", id: L.string(at: 1) ?? "?")
            return 0
        }
    }

    /// `countdown.end_actions()`: how many ends this process still runs an
    /// action for, or waits on another process's action for.
    static let pendingFunction: cd_host_function = { L, context in
        LuaHost.hostCall(L, context) { host, L throws(APIError) in
            L.push(host.store.pendingEndActions)
            return 1
        }
    }
}
