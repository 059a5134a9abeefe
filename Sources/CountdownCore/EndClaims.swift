/// One end of a stored countdown, claimed so that its end action runs once
/// however many processes follow the countdown (docs/stores.md, "One end, one action").
///
/// An end is named by the stored countdown's id and its end instant (`end`, UTC
/// wall-clock nanoseconds: the finished record's deadline). Copies of one
/// countdown in several processes see its end a moment apart: two ends of one
/// id less than `EndClaimRules.sameEnd` apart are the same end.
public struct EndClaim: Sendable, Equatable {
    public var id: String
    public var end: Nanoseconds
    /// The fencing token: it only grows, per id, with every claim made; a later
    /// claimant of the same end always holds a larger one.
    public var token: Int64

    public init(id: String, end: Nanoseconds, token: Int64) {
        self.id = id
        self.end = end
        self.token = token
    }
}

/// What claiming an end gave.
public enum EndClaimOutcome: Sendable, Equatable {
    /// This process holds the end until `lease` passes (or it renews the lease):
    /// it runs the action, then marks it done.
    case won(EndClaim)
    /// Another process holds it; its lease ends within `leaseLeft` unless renewed.
    case held(leaseLeft: Nanoseconds)
    /// Its action is done (or a later end of the same countdown has been claimed).
    case done
}

/// The bounds every store applies to end claims.
public enum EndClaimRules {
    /// Two ends of one countdown closer than this are one end.
    public static let sameEnd: Nanoseconds = 500_000_000
    /// The shortest and the longest lease.
    public static let shortestLease: Nanoseconds = 100_000_000
    public static let longestLease: Nanoseconds = 86_400 * 1_000_000_000
}

/// A store that can hand out end claims. Every call commits before it returns.
public protocol EndClaiming: AnyObject {
    /// Records an end with `record` (the change that marks the stored countdown
    /// finished; nil: nothing to record) and claims it for `owner` for `lease`,
    /// where the store allows in the same transaction. The end is the finished
    /// record's deadline, or `fallbackEnd` when the record is not finished (gone,
    /// or started again by another process already). Returns the end and what
    /// the claim gave.
    func recordEndAndClaim(id: String, record: ((inout StoredCountdown?) -> Void)?, fallbackEnd: Nanoseconds,
                           owner: String, lease: Nanoseconds, now: StoreInstant) throws -> (end: Nanoseconds, outcome: EndClaimOutcome)
    /// Claims the end of `id` at `end` for `owner` for `lease`, unless another
    /// owner holds it with a lease not yet passed, or its action is done.
    func claimEnd(id: String, end: Nanoseconds, owner: String, lease: Nanoseconds, now: StoreInstant) throws -> EndClaimOutcome
    /// Extends the lease of `claim`; false when it is no longer this owner's
    /// (the lease passed and another process claimed the end).
    func renewEndClaim(_ claim: EndClaim, owner: String, lease: Nanoseconds, now: StoreInstant) throws -> Bool
    /// Marks the action of `claim` done; false when the claim was no longer
    /// this owner's (another process took the end over after the lease).
    func finishEndClaim(_ claim: EndClaim, owner: String, now: StoreInstant) throws -> Bool
}

extension EndClaiming where Self: CountdownStoreBackend {
    /// Two transactions, for a store that has no transaction spanning both (Redis,
    /// whose claim is one atomic script of its own).
    public func recordEndAndClaim(id: String, record: ((inout StoredCountdown?) -> Void)?, fallbackEnd: Nanoseconds,
                                  owner: String, lease: Nanoseconds, now: StoreInstant) throws -> (end: Nanoseconds, outcome: EndClaimOutcome) {
        let stored = try modify(id: id) { stored -> StoredCountdown? in
            record?(&stored)
            return stored
        }
        let end = EndClaimRules.end(of: stored, fallback: fallbackEnd)
        return (end, try claimEnd(id: id, end: end, owner: owner, lease: lease, now: now))
    }
}

extension EndClaimRules {
    /// The end an end claim is made for: a finished record's deadline, else `fallback`.
    public static func end(of record: StoredCountdown?, fallback: Nanoseconds) -> Nanoseconds {
        if let record, record.state == .finished { return record.wallDeadline }
        return fallback
    }
}

/// The claim state of one id, as the SQLite and in-memory stores keep it.
public struct EndClaimRow: Sendable, Equatable {
    public var end: Nanoseconds
    public var owner: String?
    public var leaseUntil: Nanoseconds
    public var token: Int64
    public var done: Bool

    public init(end: Nanoseconds, owner: String?, leaseUntil: Nanoseconds, token: Int64, done: Bool) {
        self.end = end
        self.owner = owner
        self.leaseUntil = leaseUntil
        self.token = token
        self.done = done
    }

    /// The rule both table stores apply, in one place: claims `end` for `owner`
    /// when nobody holds it; `row` nil: no end of this id was claimed yet.
    public static func claim(_ row: inout EndClaimRow?, end: Nanoseconds, owner: String, lease: Nanoseconds,
                             wallNow: Nanoseconds) -> EndClaimOutcome {
        if var current = row {
            if end - current.end >= EndClaimRules.sameEnd {
                // A later end: a new claim, the token still growing.
                current = EndClaimRow(end: end, owner: nil, leaseUntil: 0, token: current.token, done: false)
            } else if current.end - end >= EndClaimRules.sameEnd || current.done {
                // An earlier end than the one claimed last, or this one's action is done.
                return .done
            } else if current.owner != nil, current.leaseUntil > wallNow {
                return .held(leaseLeft: current.leaseUntil - wallNow)
            }
            current.owner = owner
            current.leaseUntil = wallNow + lease
            current.token += 1
            row = current
            return .won(EndClaim(id: "", end: current.end, token: current.token))
        }
        row = EndClaimRow(end: end, owner: owner, leaseUntil: wallNow + lease, token: 1, done: false)
        return .won(EndClaim(id: "", end: end, token: 1))
    }
}

extension InMemoryCountdownStore: EndClaiming {
    public func claimEnd(id: String, end: Nanoseconds, owner: String, lease: Nanoseconds, now: StoreInstant) throws -> EndClaimOutcome {
        var row = endClaims[CountdownID(id)]
        let outcome = EndClaimRow.claim(&row, end: end, owner: owner, lease: lease, wallNow: now.wall)
        endClaims[CountdownID(id)] = row
        if case .won(var claim) = outcome {
            claim.id = id
            return .won(claim)
        }
        return outcome
    }

    public func renewEndClaim(_ claim: EndClaim, owner: String, lease: Nanoseconds, now: StoreInstant) throws -> Bool {
        guard var row = endClaims[CountdownID(claim.id)], row.token == claim.token, row.owner == owner, !row.done else { return false }
        row.leaseUntil = now.wall + lease
        endClaims[CountdownID(claim.id)] = row
        return true
    }

    public func finishEndClaim(_ claim: EndClaim, owner: String, now: StoreInstant) throws -> Bool {
        guard var row = endClaims[CountdownID(claim.id)], row.token == claim.token, row.owner == owner, !row.done else { return false }
        row.done = true
        row.owner = nil
        endClaims[CountdownID(claim.id)] = row
        return true
    }
}
