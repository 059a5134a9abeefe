import CLua
import CLuaShim
import CountdownCore

/// A countdown of a script version that a reload replaces (`cdscript run
/// --watch`): where it stands, so that the new version's start of the same id
/// goes on from there instead of from its full length.
public struct CarriedCountdown: Equatable, Sendable {
    /// Its id; nil for an anonymous countdown (matched in start order).
    public let id: String?
    /// Where it ends, on the scheduler's clock (or the wall clock for `at`); for a
    /// paused one, `.after` the time it had left.
    public let deadline: Deadline
    /// Its whole length, appends included: `elapsed` and `progress` go on from it.
    public let total: Nanoseconds
    public let paused: Bool
    public let every: Nanoseconds
    /// Kept in the store (`persist = true`).
    public let persistent: Bool
    /// Paused by the Space key: the next Space resumes it.
    public let pausedBySpace: Bool

    public init(id: String?, deadline: Deadline, total: Nanoseconds, paused: Bool, every: Nanoseconds,
                persistent: Bool, pausedBySpace: Bool = false) {
        self.id = id
        self.deadline = deadline
        self.total = total
        self.paused = paused
        self.every = every
        self.persistent = persistent
        self.pausedBySpace = pausedBySpace
    }
}

/// The countdowns a new script version takes over while its main chunk runs:
/// a start under a carried id, and the n-th anonymous start for the n-th
/// anonymous countdown, keep the carried deadline (or paused time) and length
/// with the new start's hooks and interval.
public final class CountdownCarryOver {
    private var byID: [CountdownID: CarriedCountdown] = [:]
    /// Ids in the order the old version started them.
    private var order: [CountdownID] = []
    private var anonymous: [CarriedCountdown]
    private var nextAnonymous = 0

    public init(_ countdowns: [CarriedCountdown]) {
        anonymous = countdowns.filter { $0.id == nil }
        for countdown in countdowns {
            guard let id = countdown.id.map({ CountdownID($0) }) else { continue }
            if byID[id] == nil { order.append(id) }
            byID[id] = countdown
        }
    }

    /// The carried countdown a start with `id` takes over (each once).
    func claim(id: String?) -> CarriedCountdown? {
        guard let id else {
            guard nextAnonymous < anonymous.count else { return nil }
            defer { nextAnonymous += 1 }
            return anonymous[nextAnonymous]
        }
        return byID.removeValue(forKey: CountdownID(id))
    }

    /// Countdowns with an id that the new version did not start, in their start order.
    public var unclaimed: [CarriedCountdown] { order.compactMap { byID[$0] } }
}

extension LuaHost {
    /// The active countdowns, in start order, as a reload carries them.
    public func carriedCountdowns() -> [CarriedCountdown] {
        let L = vm.state
        let base = L.top
        defer { L.setTop(base) }
        return scheduler.activeKeys.compactMap { key -> CarriedCountdown? in
            guard let context = scheduler.context(key), let remaining = scheduler.remaining(key),
                  let total = scheduler.total(key), let every = scheduler.every(key) else { return nil }
            cd_push_ref(L.raw, SlotHooks(context: context).handleRef)
            defer { L.setTop(base) }
            let persistent = cd_to_handle(L.raw, -1)?.pointee.persistent ?? 0 != 0
            lua_getiuservalue(L.raw, -1, CD_UV_ID)
            let id = L.type(at: -1) == LUA_TSTRING ? L.string(at: -1) : nil
            let paused = scheduler.state(key) == .paused
            let deadline: Deadline
            if paused {
                deadline = .after(remaining)
            } else if scheduler.followsWallClock(key) == true, let wall = scheduler.wallDeadline(key) {
                deadline = .wall(wall)
            } else {
                deadline = .boot(scheduler.bootDeadline(key) ?? scheduler.now + remaining)
            }
            let bySpace = paused && (view?.pausedBySpace.contains(key) ?? false)
            return CarriedCountdown(id: id, deadline: deadline, total: total, paused: paused, every: every,
                                    persistent: persistent, pausedBySpace: bySpace)
        }
    }

    /// Countdowns the next main chunk takes over (`run --watch`); nil after it ran.
    public var carryOver: CountdownCarryOver? {
        get { countdowns.carryOver }
        set { countdowns.carryOver = newValue }
    }

    /// After the new version's main chunk: starts each carried countdown with an
    /// id that it did not start again, with no hooks of its own (global hooks and
    /// `countdown.get` see it), so that a countdown started by a key press keeps
    /// running. Then the carry-over ends.
    public func adoptUnclaimedCountdowns() {
        guard let carryOver else { return }
        let L = vm.state
        let base = L.top
        defer {
            L.setTop(base)
            self.carryOver = nil
        }
        for countdown in carryOver.unclaimed {
            guard let id = countdown.id else { continue }
            L.setTop(base)
            L.pushRef(countdowns.tableRef)
            guard L.rawField(-1, "start") == LUA_TFUNCTION else { continue }
            L.pushTable(fields: 4)
            L.push(id)
            L.setRawField(-2, "id")
            // Any valid length: the carried deadline replaces it.
            lua_pushnumber(L.raw, 1)
            L.setRawField(-2, "seconds")
            lua_pushnumber(L.raw, Time.seconds(countdown.every))
            L.setRawField(-2, "every")
            if countdown.persistent {
                lua_pushboolean(L.raw, 1)
                L.setRawField(-2, "persist")
            }
            // A failure leaves that one countdown behind; the others are still adopted.
            _ = cd_pcall_traceback(L.raw, 1, 0)
        }
    }
}
