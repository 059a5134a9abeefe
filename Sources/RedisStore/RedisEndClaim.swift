import CountdownCore

/// End claims in Redis (docs/stores.md, "One end, one action"): per stored countdown a
/// hash `cdscript:end:<id>` (the end last claimed and whether its action is
/// done), a lease `cdscript:end-lease:<id>` ("owner token", set with PX, so the
/// server ends it when its holder stops renewing) and the fencing-token counter
/// `cdscript:end-token:<id>` (INCR: it only grows). Each operation is one atomic
/// script; the lease's expiry is the server's clock, the same for every machine.
enum RedisEndClaimScripts {
    /// KEYS: hash, lease, counter. ARGV: end, owner, lease ms, same-end ns.
    /// Returns {0, token, end} when claimed, {1, lease ms left} when held, {2} when done.
    static let claim = """
        local e = tonumber(ARGV[1])
        local storedText = redis.call('HGET', KEYS[1], 'end')
        local stored = tonumber(storedText or '')
        if stored == nil or e - stored >= tonumber(ARGV[4]) then
          redis.call('HSET', KEYS[1], 'end', ARGV[1], 'done', '0')
          redis.call('DEL', KEYS[2])
          storedText = ARGV[1]
        elseif stored - e >= tonumber(ARGV[4]) or redis.call('HGET', KEYS[1], 'done') == '1' then
          return {2}
        end
        local left = redis.call('PTTL', KEYS[2])
        if left > 0 then return {1, left} end
        local token = redis.call('INCR', KEYS[3])
        redis.call('SET', KEYS[2], ARGV[2] .. ' ' .. token, 'PX', ARGV[3])
        return {0, token, storedText}
        """

    /// KEYS: hash, lease, counter. ARGV: owner, token, lease ms, end. The lease is
    /// extended while it is this claim's, or set again when it passed and nobody
    /// claimed the end since (the counter still at this token). Returns 1 or 0.
    static let renew = """
        if redis.call('HGET', KEYS[1], 'end') ~= ARGV[4] or redis.call('HGET', KEYS[1], 'done') == '1' then return 0 end
        local mine = ARGV[1] .. ' ' .. ARGV[2]
        local holder = redis.call('GET', KEYS[2])
        if holder == mine or (not holder and redis.call('GET', KEYS[3]) == ARGV[2]) then
          redis.call('SET', KEYS[2], mine, 'PX', ARGV[3])
          return 1
        end
        return 0
        """

    /// KEYS: hash, lease, counter. ARGV: owner, token, end. Marks the action done
    /// when the claim is still this one's. Returns 1 or 0.
    static let finish = """
        if redis.call('HGET', KEYS[1], 'end') ~= ARGV[3] or redis.call('HGET', KEYS[1], 'done') == '1' then return 0 end
        local holder = redis.call('GET', KEYS[2])
        if holder == ARGV[1] .. ' ' .. ARGV[2] or (not holder and redis.call('GET', KEYS[3]) == ARGV[2]) then
          redis.call('HSET', KEYS[1], 'done', '1')
          redis.call('DEL', KEYS[2])
          return 1
        end
        return 0
        """
}

extension RedisCountdownStore: EndClaiming {
    static func endClaimKeys(_ id: String) -> [String] {
        ["cdscript:end:" + id, "cdscript:end-lease:" + id, "cdscript:end-token:" + id]
    }

    /// Runs one claim script; a claim is never queued: offline, it fails.
    private func runEndScript(_ script: String, id: String, _ arguments: [String]) throws -> RedisReply {
        _ = try shiftForOperation()
        guard let connection else {
            throw RedisError(connectionLost: true, message: "\(url): cannot claim the end of '\(id)': not connected")
        }
        let reply = try send(["EVAL", script, "3"] + Self.endClaimKeys(id) + arguments, on: connection)
        if case .error(let message) = reply { throw RedisError(connectionLost: false, message: "\(url): \(message)") }
        return reply
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

    public func claimEnd(id: String, end: Nanoseconds, owner: String, lease: Nanoseconds, now: StoreInstant) throws -> EndClaimOutcome {
        let reply = try runEndScript(RedisEndClaimScripts.claim, id: id,
                                     [String(end), owner, Self.milliseconds(lease), String(EndClaimRules.sameEnd)])
        guard case .array(let parts) = reply, case .integer(let status)? = parts.first else {
            throw RedisError(connectionLost: false, message: "\(url): unexpected reply \(reply) to an end claim")
        }
        switch status {
        case 0:
            guard parts.count == 3, case .integer(let token) = parts[1], let text = parts[2].string, let claimed = Int64(text) else {
                throw RedisError(connectionLost: false, message: "\(url): unexpected reply \(reply) to an end claim")
            }
            return .won(EndClaim(id: id, end: claimed, token: token))
        case 1:
            guard parts.count == 2, case .integer(let left) = parts[1] else {
                throw RedisError(connectionLost: false, message: "\(url): unexpected reply \(reply) to an end claim")
            }
            return .held(leaseLeft: left * 1_000_000)
        default:
            return .done
        }
    }

    public func renewEndClaim(_ claim: EndClaim, owner: String, lease: Nanoseconds, now: StoreInstant) throws -> Bool {
        let reply = try runEndScript(RedisEndClaimScripts.renew, id: claim.id,
                                     [owner, String(claim.token), Self.milliseconds(lease), String(claim.end)])
        return reply == .integer(1)
    }

    public func finishEndClaim(_ claim: EndClaim, owner: String, now: StoreInstant) throws -> Bool {
        let reply = try runEndScript(RedisEndClaimScripts.finish, id: claim.id, [owner, String(claim.token), String(claim.end)])
        return reply == .integer(1)
    }
}
