import CountdownCore

/// Every change through the one script (`RedisScripts`), and the queue of
/// changes the server does not hold yet.
extension RedisCountdownStore {
    /// One change through the script: `before` is what it was computed from
    /// (ignored when `unconditional`). Returns false when the stored value was not
    /// `before` (another process changed it: compute again). Offline, or while
    /// queued changes are being sent, the change is queued and counts as made.
    @discardableResult
    func write(id: String, before: StoredCountdown?, after: StoredCountdown?, unconditional: Bool) throws -> Bool {
        forgetReadAhead(id)
        if answersFromCache {
            guard everConnected else { throw RedisError(connectionLost: true, message: "cannot reach \(url)") }
            try queue(PendingChange(id: id, before: before, after: after, instant: clock.serverNow(), unconditional: unconditional))
            return true
        }
        let sequence = nextSequence()
        do {
            let outcome = try runScript(id: id, sequence: sequence, expected: before, new: after, unconditional: unconditional)
            switch outcome {
            case .written(let existed, _), .alreadyApplied(let existed, _):
                remember(id, after)
                // Done only once the replicas asked for have it; a connection
                // lost meanwhile is a lost reply (below).
                if let connection { try confirmOnReplicas(connection, subject: Self.subject(id)) }
                return unconditional ? existed : true
            case .conflict(let current):
                remember(id, current)
                return false
            }
        } catch let error as RedisError where error.connectionLost {
            // The reply was lost, not necessarily the change: replaying it under the
            // same sequence number applies it at most once.
            wentOffline(error)
            try queue(PendingChange(id: id, before: before, after: after, instant: clock.serverNow(), unconditional: unconditional, sequence: sequence))
            return true
        }
    }

    /// A change that met `attemptsPerChange` conflicting writes in a row: given up
    /// on, and the user told (by `modify`'s caller, or `replayPending`'s notice).
    func gaveUp(changing id: String) -> RedisError {
        RedisError(connectionLost: false, message: "\(url): gave up changing '\(id)' after \(attemptsPerChange) conflicting writes")
    }

    func queue(_ change: PendingChange) throws(RedisError) {
        var change = change
        if !pending.merges(change) {
            // Merged changes take no more room: the queue grows with the countdowns
            // changed, and those are bounded by the memory limit.
            change.charged = chargeMemory(PendingChanges.entryBytes(change))
            // A change whose reply was lost is kept whatever the limit: it may be
            // on the server already.
            guard change.charged || change.sequence != nil else {
                throw RedisError(connectionLost: false, message: "\(url) is out of reach, and keeping more changes for it would pass the memory limit (--memory-limit); changes to more countdowns are not kept")
            }
        }
        enqueue(change)
        remember(change.id, change.after)
    }

    func dropFirstPending() {
        guard let first = pending.first else { return }
        if first.charged { _ = chargeMemory(-PendingChanges.entryBytes(first)) }
        if let row = first.journalRow { keepOnDisk { try $0.delete(row: row) } }
        pending.removeFirst()
    }

    func dropAllPending() {
        while !pending.isEmpty { dropFirstPending() }
    }

    func nextSequence() -> Int {
        sequence += 1
        return sequence
    }

    enum ScriptOutcome {
        /// `existed`: something was stored before, readable or not (removing an
        /// unreadable record by its id is how it is cleaned up); `previous`: what
        /// it was, when readable.
        case written(existed: Bool, previous: StoredCountdown?)
        case alreadyApplied(existed: Bool, previous: StoredCountdown?)
        case conflict(current: StoredCountdown?)
    }

    func runScript(id: String, sequence: Int, expected: StoredCountdown?, new: StoredCountdown?, unconditional: Bool) throws -> ScriptOutcome {
        guard let connection else { throw RedisError(connectionLost: true, message: "\(url): not connected") }
        let keysAndArgs = ["2", Self.hashKey, writerKey, id, expected.map(RedisRecord.encode) ?? "",
                           new.map(RedisRecord.encode) ?? "", channel, unconditional ? "any" : "compare", String(sequence)]
        return try evaluate(keysAndArgs, connection: connection, id: id)
    }

    func evaluate(_ keysAndArgs: [String], connection: RedisConnection, id: String) throws -> ScriptOutcome {
        if scriptSHA == nil {
            scriptSHA = try connection.command(["SCRIPT", "LOAD", RedisScripts.compareAndSet]).string
        }
        var reply = try connection.command(["EVALSHA", scriptSHA ?? ""] + keysAndArgs)
        if case .error(let e) = reply, e.hasPrefix("NOSCRIPT") {
            // A restarted server forgot its scripts: EVAL sends it again.
            reply = try connection.command(["EVAL", RedisScripts.compareAndSet] + keysAndArgs)
            scriptSHA = nil
        }
        guard case .array(let parts) = reply, parts.count == 2, case .integer(let status) = parts[0] else {
            if case .error(let e) = reply { throw RedisError(connectionLost: false, message: "\(url): \(e)") }
            throw RedisError(connectionLost: false, message: "\(url): unexpected reply \(reply)")
        }
        let existed = parts[1].string.map { !$0.isEmpty } ?? false
        switch status {
        case 1: return .written(existed: existed, previous: try? decode(id: id, parts[1]))
        case 2: return .alreadyApplied(existed: existed, previous: try? decode(id: id, parts[1]))
        default: return .conflict(current: try decode(id: id, parts[1]))
        }
    }
}
