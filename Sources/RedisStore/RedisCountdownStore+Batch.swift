import CountdownCore

/// Many saves or removals at once (the persistent starts of one callback, `cancel
/// --all`): the same script as `save` and `delete`, pipelined in slices, one round
/// trip per slice instead of per countdown. Each runs atomically on the server; a
/// slice never holds it for more than the few milliseconds its scripts take.
extension RedisCountdownStore {
    /// Saves per pipelined slice.
    static let saveSlice = 500

    public func saveAll(_ records: [StoredCountdown]) throws {
        try saveAll(records, heldHere: false)
    }

    /// `saveAll`; `heldHere`: every record is of a countdown this process runs
    /// (its persistent starts of one callback), so the copy keeps none of them,
    /// and no id is looked up in the process to find that out (two look-ups of
    /// each id in its Lua id table, for an answer known beforehand).
    public func saveAll(_ records: [StoredCountdown], heldHere: Bool) throws {
        for record in records { try checkStorable(record) }
        guard !records.isEmpty else { return }
        let shift = try shiftForOperation()
        var start = 0
        while start < records.count {
            let slice = records[start..<min(start + Self.saveSlice, records.count)]
            do {
                if slice.count == 1 || !pipelines {
                    // Offline (queued), or one alone: as `save` does it, with the queue's
                    // rows on disk written together.
                    try queueingTogether { for record in slice { try save(record) } }
                } else {
                    _ = try pipeline(slice.map { ($0.id, $0) }, shift: shift, heldHere: heldHere)
                }
            } catch {
                throw PartialSaveError(stored: start, total: records.count, underlying: error)
            }
            start = slice.endIndex
        }
    }

    public func deleteAll(ids: [String]) throws -> [String] {
        guard !ids.isEmpty else { return [] }
        let shift = try shiftForOperation()
        var removed: [String] = []
        var start = 0
        while start < ids.count {
            let slice = ids[start..<min(start + deleteSlice, ids.count)]
            do {
                if slice.count == 1 || !pipelines {
                    try queueingTogether { for id in slice where try delete(id: id) { removed.append(id) } }
                } else {
                    let existed = try pipeline(slice.map { ($0, nil) }, shift: shift)
                    for (id, was) in zip(slice, existed) where was { removed.append(id) }
                }
            } catch {
                throw PartialDeleteError(removed: removed, underlying: error)
            }
            start = slice.endIndex
        }
        return removed
    }

    /// True when changes go to the server now (connected, not answering from the
    /// copy kept while it was out of reach).
    private var pipelines: Bool { connection != nil && !answersFromCache }

    /// Sends each change (a record to store, in this process's terms, shifted to the
    /// server's clock by `shift`; or nil to remove the id) unconditionally,
    /// all before reading any reply; returns, per change, whether the id was stored
    /// before. A server that lost the connection part way: each change whose reply was
    /// lost is queued under its own sequence number (applied at most once when sent
    /// again), and what was never sent is made as an offline change.
    private func pipeline(_ local: [(id: String, after: StoredCountdown?)], shift: Nanoseconds, heldHere: Bool = false) throws -> [Bool] {
        let changes = local.map { (id: $0.id, after: $0.after.map { RedisRecord.shifted($0, by: shift) }) }
        guard let connection else { throw RedisError(connectionLost: true, message: "\(url): not connected") }
        if scriptSHA == nil {
            scriptSHA = try connection.command(["SCRIPT", "LOAD", RedisScripts.compareAndSet]).string
        }
        var sequences: [Int] = []
        var existed: [Bool] = []
        do {
            for change in changes {
                if heldHere { cache.forget(CountdownID(change.id)) } else { markUsed(change.id) }
                forgetReadAhead(change.id)
                let sequence = nextSequence()
                try connection.send(["EVALSHA", scriptSHA ?? "", "2", Self.hashKey, writerKey, change.id, "",
                                     change.after.map(RedisRecord.encode) ?? "", channel, "any", String(sequence)])
                sequences.append(sequence)
            }
            while existed.count < sequences.count {
                let reply = try connection.reply()
                let change = changes[existed.count]
                if case .error(let e) = reply {
                    // A server that forgot its scripts (NOSCRIPT): this one and the rest one by one.
                    guard e.hasPrefix("NOSCRIPT") else { throw RedisError(connectionLost: false, message: "\(url): \(e)") }
                    scriptSHA = nil
                    var drained = existed.count + 1
                    while drained < sequences.count { _ = try connection.reply(); drained += 1 }
                    for rest in changes[existed.count...] {
                        existed.append(try write(id: rest.id, before: lastSeen(rest.id), after: rest.after, unconditional: true))
                    }
                    return existed
                }
                if case .array(let parts) = reply, parts.count == 2 {
                    existed.append(parts[1].string.map { !$0.isEmpty } ?? false)
                } else {
                    existed.append(false)
                }
                if !heldHere { remember(change.id, change.after) }
            }
        } catch let error as RedisError where error.connectionLost {
            wentOffline(error)
            return try queueAfterLoss(changes, local: local, sequences: sequences, existed: existed)
        }
        do {
            try confirmOnReplicas(connection, subject: "\(changes.count) countdown\(changes.count == 1 ? "" : "s")")
        } catch {
            guard error.connectionLost else { throw error }
            // Applied, but maybe not on a replica: each is kept under its number,
            // to be sent to whichever server is primary next (applied there once).
            wentOffline(error)
            for (change, sequence) in zip(changes, sequences) {
                try queue(PendingChange(id: change.id, before: nil, after: change.after, instant: clock.serverNow(),
                                        unconditional: true, sequence: sequence))
            }
        }
        return existed
    }

    /// The rest of `pipeline` after the connection was lost part way.
    private func queueAfterLoss(_ changes: [(id: String, after: StoredCountdown?)], local: [(id: String, after: StoredCountdown?)],
                                sequences: [Int], existed: [Bool]) throws -> [Bool] {
        var existed = existed
        for (change, sequence) in zip(changes[existed.count...], sequences[existed.count...]) {
            existed.append(lastSeen(change.id) != nil)
            try queue(PendingChange(id: change.id, before: nil, after: change.after, instant: clock.serverNow(),
                                    unconditional: true, sequence: sequence))
        }
        for change in local.dropFirst(existed.count) {
            if let record = change.after {
                existed.append(lastSeen(change.id) != nil)
                try save(record)
            } else {
                existed.append(try delete(id: change.id))
            }
        }
        return existed
    }
}
