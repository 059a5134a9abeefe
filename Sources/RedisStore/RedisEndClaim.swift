import CountdownCore

/// End claims in Redis (docs/stores.md, "One end, one action"): per stored countdown a
/// hash `cdscript:end:<id>` (the end last claimed, named by the finished record's
/// deadline and changed stamp as the server holds them, and whether its action
/// is done), a lease `cdscript:end-lease:<id>` ("owner token", set with PX, so
/// the server ends it when its holder stops renewing) and the fencing-token
/// counter `cdscript:end-token:<id>` (INCR, started at the server's time in
/// microseconds when it is missing: it only grows, also across a server that
/// lost its data). Each operation is one atomic script (Lua/end_*.lua, each after
/// Lua/end_claim_keys.lua, which refuses damaged keys by name); every time in it
/// is the server's.
enum RedisEndClaimScripts {
    private static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
    private static let keys = text(PackageResources.end_claim_keys_lua)
    static let claim = keys + "\n" + text(PackageResources.end_claim_lua)
    static let renew = keys + "\n" + text(PackageResources.end_renew_lua)
    static let finish = keys + "\n" + text(PackageResources.end_finish_lua)
}

extension RedisCountdownStore: EndClaiming {
    static func endClaimKeys(_ id: String) -> [String] {
        ["cdscript:end:" + id, "cdscript:end-lease:" + id, "cdscript:end-token:" + id]
    }

    /// Runs one claim script; a claim is never queued: offline, it fails. A
    /// reply `{3, key, problem}` (damage) or `{4}` (the claim is gone) is thrown
    /// as `EndClaimDamage`.
    private func runEndScript(_ script: String, id: String, extraKeys: [String] = [], _ arguments: [String]) throws -> [RedisReply] {
        _ = try shiftForOperation()
        guard let connection else {
            throw RedisError(connectionLost: true, message: "\(url): cannot claim the end of '\(id)': not connected")
        }
        let keys = Self.endClaimKeys(id) + extraKeys
        let reply = try send(["EVAL", script, String(keys.count)] + keys + arguments, on: connection)
        if case .error(let message) = reply { throw RedisError(connectionLost: false, message: "\(url): \(message)") }
        guard case .array(let parts) = reply, case .integer(let status)? = parts.first else {
            throw RedisError(connectionLost: false, message: "\(url): unexpected reply \(reply) to an end claim")
        }
        switch status {
        case 3:
            let key = parts.count > 1 ? parts[1].string ?? "?" : "?"
            let problem = parts.count > 2 ? parts[2].string ?? "?" : "?"
            throw EndClaimDamage(key: "\(url) key \(VisibleText.escaped(key).debugDescription)", problem: problem)
        case 4:
            throw EndClaimDamage(key: "\(url) key \(VisibleText.escaped(keys[0]).debugDescription)", problem: try lossExplanation(id: id, connection))
        default:
            return parts
        }
    }

    /// Why a claim's hash is gone: the server lost its data (its epoch is not
    /// the one the claim was made under) or someone removed the key.
    private func lossExplanation(id: String, _ connection: RedisConnection) throws -> String {
        let now = try send(["GET", Self.epochKey], on: connection).string
        let lost = claimEpochs[id].map { $0 != now } ?? false
        return (lost ? "the server lost its data since the claim (cdscript:epoch changed: restarted without persistence, or flushed)"
                     : "the claim was removed from the server")
            + "; the action may run again elsewhere, with a larger fencing token"
    }

    /// One command; a lost connection takes the store offline (as any command does).
    private func send(_ arguments: [String], on connection: RedisConnection) throws(RedisError) -> RedisReply {
        do {
            return try connection.command(arguments)
        } catch {
            if error.connectionLost { wentOffline(error) }
            throw error
        }
    }

    private static func milliseconds(_ ns: Nanoseconds) -> String { String(max(1, (ns + 999_999) / 1_000_000)) }

    private func unexpected(_ parts: [RedisReply]) -> RedisError {
        RedisError(connectionLost: false, message: "\(url): unexpected reply \(parts) to an end claim")
    }

    /// An end name from a script's reply (decimal text: the server never rounds it).
    private func name(_ parts: [RedisReply], at index: Int) throws -> EndName {
        guard parts.count > index + 1, let end = parts[index].string.flatMap({ Int64($0) }),
              let changed = parts[index + 1].string.flatMap({ Int64($0) }) else { throw unexpected(parts) }
        return EndName(deadline: end, changedAt: changed)
    }

    public func claimEnd(id: String, expected: EndName?, owner: String, lease: Nanoseconds, now: StoreInstant) throws -> EndClaimOutcome {
        let parts = try runEndScript(RedisEndClaimScripts.claim, id: id, extraKeys: [Self.hashKey],
                                     [id, owner, Self.milliseconds(lease),
                                      expected.map { String($0.deadline) } ?? "", expected.map { String($0.changedAt) } ?? ""])
        guard case .integer(let status) = parts[0] else { throw unexpected(parts) }
        switch status {
        case 0:
            guard let token = parts.count > 1 ? parts[1].string.flatMap({ Int64($0) }) : nil else { throw unexpected(parts) }
            claimEpochs[id] = epoch
            let claim = EndClaim(id: id, name: try name(parts, at: 2), token: token)
            // Won only once the replicas asked for hold the claim: a failover to
            // one of them keeps it, so no other process wins the same end there.
            try confirmClaim(id)
            return .won(claim)
        case 1:
            guard parts.count > 1, case .integer(let left) = parts[1] else { throw unexpected(parts) }
            return .held(leaseLeft: left * 1_000_000, name: try name(parts, at: 2))
        default:
            // A status the claimant recorded with the done mark (a bulk string: Lua's nil ends the reply before it).
            if parts.count > 1, let status = parts[1].string.flatMap({ Int32($0) }) { return .ranWith(status: status) }
            return .done
        }
    }

    public func renewEndClaim(_ claim: EndClaim, owner: String, lease: Nanoseconds, now: StoreInstant) throws -> Bool {
        let parts = try runEndScript(RedisEndClaimScripts.renew, id: claim.id, extraKeys: [Self.epochKey],
                                     [owner, String(claim.token), Self.milliseconds(lease),
                                      String(claim.name.deadline), String(claim.name.changedAt), claimEpochs[claim.id] ?? ""])
        return parts.first == .integer(1)
    }

    public func finishEndClaim(_ claim: EndClaim, owner: String, status: Int32?, now: StoreInstant) throws -> Bool {
        let parts = try runEndScript(RedisEndClaimScripts.finish, id: claim.id, extraKeys: [Self.epochKey],
                                     [owner, String(claim.token), String(claim.name.deadline), String(claim.name.changedAt),
                                      claimEpochs[claim.id] ?? "", status.map { String($0) } ?? ""])
        guard parts.first == .integer(1) else { return false }
        try confirmClaim(claim.id)
        return true
    }

    /// Waits for the replicas `url.wait` names to hold what the last claim
    /// script wrote (`confirmOnReplicas`); a connection lost meanwhile takes the
    /// store offline and is thrown, as a lost claim script is.
    private func confirmClaim(_ id: String) throws {
        guard let connection else { return }
        do {
            try confirmOnReplicas(connection, subject: "the end claim of \(Self.subject(id))")
        } catch {
            if error.connectionLost { wentOffline(error) }
            throw error
        }
    }
}
