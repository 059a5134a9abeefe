/// The name of one end of a stored countdown, as the store holds it
/// (docs/stores.md, "One end, one action"): the finished record's own deadline
/// and the stamp of the change that finished it (`updatedAt`, which every change
/// of the record rewrites), both exactly as stored. On Redis both are instants
/// on the server's clock. Nothing in it is read from the clock of a process that
/// saw the end, so processes whose clocks disagree by seconds name one end alike.
/// Names are only ever compared for equality.
public struct EndName: Sendable, Equatable {
    public var deadline: Nanoseconds
    public var changedAt: Nanoseconds

    public init(deadline: Nanoseconds, changedAt: Nanoseconds) {
        self.deadline = deadline
        self.changedAt = changedAt
    }

    /// The end `record` stands for: only a finished record names one.
    public init?(finished record: StoredCountdown?) {
        guard let record, record.state == .finished else { return nil }
        self.init(deadline: record.wallDeadline, changedAt: record.updatedAt)
    }
}

/// One end of a stored countdown, claimed so that its end action runs once
/// however many processes follow the countdown.
public struct EndClaim: Sendable, Equatable {
    public var id: String
    public var name: EndName
    /// The fencing token: it only grows, per id, with every claim made; a later
    /// claimant of the same end always holds a larger one.
    public var token: Int64

    public init(id: String, name: EndName, token: Int64) {
        self.id = id
        self.name = name
        self.token = token
    }
}

/// What claiming an end gave.
public enum EndClaimOutcome: Sendable, Equatable {
    /// This process holds the end until `lease` passes (or it renews the lease):
    /// it runs the action, then marks it done.
    case won(EndClaim)
    /// Another process holds the end `name`; its lease ends within `leaseLeft`
    /// unless renewed.
    case held(leaseLeft: Nanoseconds, name: EndName)
    /// Its action is done, a later end of the countdown has been claimed since,
    /// or the store names no end this process could claim.
    case done
    /// Its action is done, and the process that ran it recorded how it went:
    /// `status`, an exit status (0: it succeeded; 128 + N: signal N ended it).
    /// Every process that shares the end reports that outcome alike.
    case ranWith(status: Int32)
}

/// A claim that cannot be made or kept because what the store holds for it is
/// damaged (a key of the wrong type, a field that is no integer) or gone (a
/// server that lost its data since the claim). Asking again gives the same
/// answer, so the caller reports it and stops following that end.
public struct EndClaimDamage: Error, Sendable, CustomStringConvertible {
    /// The key or table the problem is in.
    public var key: String
    public var problem: String

    public init(key: String, problem: String) {
        self.key = key
        self.problem = problem
    }

    public var description: String { "end claim \(key): \(problem)" }
}

/// The bounds every store applies to end claims.
public enum EndClaimRules {
    /// The shortest and the longest lease.
    public static let shortestLease: Nanoseconds = 100_000_000
    public static let longestLease: Nanoseconds = 86_400 * 1_000_000_000
}

/// A store that can hand out end claims. Every call commits before it returns.
///
/// Which end a claim is for is decided by the store, from the record it holds,
/// never from a clock of the caller: `target = expected ?? (the finished record's
/// name) ?? (the end claimed last)`. A target that differs from the end claimed
/// last is claimed anew only when it is the end the stored record names now (the
/// latest end); otherwise it is over (`.done`).
public protocol EndClaiming: AnyObject {
    /// Records an end with `record` (the change that marks the stored countdown
    /// finished; nil: nothing to record) and claims the end the store then names
    /// for `owner` for `lease`, in the same transaction where the store allows.
    func recordEndAndClaim(id: String, record: ((inout StoredCountdown?) -> Void)?,
                           owner: String, lease: Nanoseconds, now: StoreInstant) throws -> EndClaimOutcome
    /// Claims the end `expected` of `id` (nil: the end the store names now) for
    /// `owner` for `lease`, unless another owner holds it with a lease not yet
    /// passed, or its action is done, or it is over.
    func claimEnd(id: String, expected: EndName?, owner: String, lease: Nanoseconds, now: StoreInstant) throws -> EndClaimOutcome
    /// Extends the lease of `claim`; false when it is no longer this owner's
    /// (the lease passed and another process claimed the end). Throws
    /// `EndClaimDamage` when the store lost or cannot read the claim.
    func renewEndClaim(_ claim: EndClaim, owner: String, lease: Nanoseconds, now: StoreInstant) throws -> Bool
    /// Marks the action of `claim` done, with its exit status when it has one
    /// (later claims of the end are told it: `.ranWith`); false when the claim
    /// was no longer this owner's (another process took the end over after the
    /// lease). Throws `EndClaimDamage` when the store lost or cannot read the claim.
    func finishEndClaim(_ claim: EndClaim, owner: String, status: Int32?, now: StoreInstant) throws -> Bool
}

extension EndClaiming {
    /// Marks the action of `claim` done, with no exit status to share.
    public func finishEndClaim(_ claim: EndClaim, owner: String, now: StoreInstant) throws -> Bool {
        try finishEndClaim(claim, owner: owner, status: nil, now: now)
    }
}

extension EndClaiming where Self: CountdownStoreBackend {
    /// Two transactions, for a store that has no transaction spanning both (Redis,
    /// whose claim is one atomic script that reads the record itself).
    public func recordEndAndClaim(id: String, record: ((inout StoredCountdown?) -> Void)?,
                                  owner: String, lease: Nanoseconds, now: StoreInstant) throws -> EndClaimOutcome {
        if let record {
            try modify(id: id) { stored in record(&stored) }
        }
        return try claimEnd(id: id, expected: nil, owner: owner, lease: lease, now: now)
    }
}

/// The claim state of one id, as the SQLite and in-memory stores keep it. The
/// lease runs on the boot clock of the boot `leaseBoot`: a machine's wall clock
/// may be off or set, its boot clock is not; a lease of another boot has passed
/// (its holder is gone).
public struct EndClaimRow: Sendable, Equatable {
    public var name: EndName
    public var owner: String?
    public var leaseUntil: Nanoseconds
    public var leaseBoot: String?
    public var token: Int64
    public var done: Bool
    /// The exit status the claimant recorded with `done` (nil: none).
    public var status: Int32?

    public init(name: EndName, owner: String?, leaseUntil: Nanoseconds, leaseBoot: String?, token: Int64, done: Bool,
                status: Int32? = nil) {
        self.name = name
        self.owner = owner
        self.leaseUntil = leaseUntil
        self.leaseBoot = leaseBoot
        self.token = token
        self.done = done
        self.status = status
    }

    /// What a claim of an end whose action is done is told.
    public var doneOutcome: EndClaimOutcome { status.map { .ranWith(status: $0) } ?? .done }

    /// Time left of the lease at `now` (0: passed, or of another boot).
    public func leaseLeft(at now: StoreInstant) -> Nanoseconds {
        guard owner != nil, leaseBoot == now.bootID else { return 0 }
        return max(0, leaseUntil - now.boot)
    }

    /// The rule both table stores apply, in one place (see `EndClaiming`):
    /// `row` nil: no end of this id was claimed yet; `current`: the end the
    /// stored record names now.
    public static func claim(_ row: inout EndClaimRow?, expected: EndName?, current: EndName?, owner: String,
                             lease: Nanoseconds, now: StoreInstant) -> EndClaimOutcome {
        guard let target = expected ?? current ?? row?.name else { return .done }
        var next: EndClaimRow
        if let row, row.name == target {
            if row.done { return row.doneOutcome }
            let left = row.leaseLeft(at: now)
            if left > 0 { return .held(leaseLeft: left, name: target) }
            next = row
        } else {
            // Only the end the record names now is claimed anew; an end that is
            // not the last claimed and not the record's is over.
            guard target == current else { return .done }
            next = EndClaimRow(name: target, owner: nil, leaseUntil: 0, leaseBoot: nil, token: row?.token ?? 0, done: false, status: nil)
        }
        next.owner = owner
        next.leaseUntil = now.boot + lease
        next.leaseBoot = now.bootID
        next.token += 1
        row = next
        return .won(EndClaim(id: "", name: target, token: next.token))
    }

    /// True while `claim` is this row's, held by `owner` and not done.
    public func isHeld(_ claim: EndClaim, by owner: String) -> Bool {
        token == claim.token && name == claim.name && self.owner == owner && !done
    }
}

extension InMemoryCountdownStore: EndClaiming {
    public func claimEnd(id: String, expected: EndName?, owner: String, lease: Nanoseconds, now: StoreInstant) throws -> EndClaimOutcome {
        var row = endClaims[CountdownID(id)]
        let outcome = EndClaimRow.claim(&row, expected: expected, current: EndName(finished: try load(id: id)),
                                        owner: owner, lease: lease, now: now)
        endClaims[CountdownID(id)] = row
        if case .won(var claim) = outcome {
            claim.id = id
            return .won(claim)
        }
        return outcome
    }

    public func renewEndClaim(_ claim: EndClaim, owner: String, lease: Nanoseconds, now: StoreInstant) throws -> Bool {
        guard var row = endClaims[CountdownID(claim.id)], row.isHeld(claim, by: owner) else { return false }
        row.leaseUntil = now.boot + lease
        row.leaseBoot = now.bootID
        endClaims[CountdownID(claim.id)] = row
        return true
    }

    public func finishEndClaim(_ claim: EndClaim, owner: String, status: Int32?, now: StoreInstant) throws -> Bool {
        guard var row = endClaims[CountdownID(claim.id)], row.isHeld(claim, by: owner) else { return false }
        row.done = true
        row.status = status
        row.owner = nil
        endClaims[CountdownID(claim.id)] = row
        return true
    }
}
