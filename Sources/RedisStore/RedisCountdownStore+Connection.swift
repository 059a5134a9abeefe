import CountdownCore
import FoundationEssentials

/// Connecting, measuring the server's clock, going offline, and a server that
/// came back without its data (`cdscript:epoch`).
extension RedisCountdownStore {
    /// The server-minus-local shift for an operation; connects (first use) or
    /// measures the clock again when it is stale.
    func shiftForOperation() throws -> Nanoseconds {
        if connection == nil && !everConnected {
            _ = try live(timeout: timeoutMilliseconds)
        }
        if let connection, clock.isStale {
            do {
                try clock.measure(connection)
            } catch {
                if !error.connectionLost { throw error }
                wentOffline(error)
            }
        }
        return clock.wallShift()
    }

    /// A new connection to the server, which answered `PING` (an error reply,
    /// such as a server still loading its data, is thrown): how the store's
    /// connection (`live`) and `check`'s own one start.
    func connectAndPing(timeout: Int) throws(RedisError) -> RedisConnection {
        let made = try RedisConnection(url, timeoutMilliseconds: timeout)
        if case .error(let e) = try made.command(["PING"]) {
            throw RedisError(connectionLost: false, message: "\(url): \(e)")
        }
        return made
    }

    @discardableResult
    func live(timeout: Int) throws(RedisError) -> RedisConnection {
        if let connection { return connection }
        let made = try connectAndPing(timeout: timeout)
        made.setTimeout(milliseconds: timeoutMilliseconds)
        try clock.measure(made)
        let seen = try currentEpoch(made)
        if epoch == nil { epoch = seen }
        let first = !everConnected
        connection = made
        everConnected = true
        if seen != epoch {
            epoch = seen
            serverLostItsData()
        }
        // What runs that ended left queued goes first: at a first connection it
        // is sent now (a command such as `list` then reads what they changed); on
        // a reconnection the feed's replay sends it with the rest.
        if adoptOrphanedChanges() > 0, first {
            _ = replayPending(forMilliseconds: Int(Int32.max))
        }
        return made
    }

    static let epochKey = "cdscript:epoch"

    /// The server's epoch: a random value set by the first cdscript that finds
    /// none. It changes only when the server lost its data.
    func currentEpoch(_ connection: RedisConnection) throws(RedisError) -> String {
        // Two commands, not SET ... NX GET: that needs Redis 7.
        _ = try connection.command(["SET", Self.epochKey, UUID().uuidString, "NX"])
        guard case .string(let value) = try connection.command(["GET", Self.epochKey]) else {
            throw RedisError(connectionLost: false, message: "\(url): unexpected reply to GET \(Self.epochKey)")
        }
        return value
    }

    /// The server came back without what it held: the countdowns this process
    /// used are not cancelled, they were lost. Each is reported, keeps running
    /// here, and is written back (unless another process already did); what was
    /// queued for it is in the record written back.
    func serverLostItsData() {
        scriptSHA = nil
        // What was queued for a countdown is in the record written back; for one a
        // process that has closed its Lua state ran (it is asked nothing more),
        // the last record queued is what is known of it.
        var used = usedLastSeen
        var named = Set(used.map { CountdownID($0.id) })
        for change in pending.waiting.reversed() where named.insert(CountdownID(change.id)).inserted {
            used.append((change.id, change.after))
        }
        dropAllPending()
        replayedSinceReconnect = 0
        for (id, record) in used.sorted(by: { $0.id.precedesInBytes($1.id) }) {
            guard let record, record.state != .finished else { continue }
            lostIDs.append(id)
            notice("cdscript: the store lost countdown \(id.debugDescription) (\(url) came back without its data); it runs on here and is written back")
            var restore = PendingChange(id: id, before: nil, after: record, instant: clock.serverNow(),
                                        unconditional: false, restore: true)
            // Kept whatever the limit: the server has nothing else of it.
            restore.charged = chargeMemory(PendingChanges.entryBytes(restore))
            enqueue(restore)
        }
    }

    func wentOffline(_ error: RedisError) {
        connection?.close()
        connection = nil
        scriptSHA = nil
        // A run being ended cut its connections on purpose: no news to tell.
        guard !runIsEnding else { onLost(); return }
        notice("cdscript: \(error.message); countdowns run on here, changes are kept and sent when \(url) is back")
        onLost()
    }
}
