import CountdownCore

/// Many saves at once (the persistent starts of one callback): the same script
/// as `save`, pipelined in slices, one round trip per slice instead of per
/// countdown. Each runs atomically on the server; a slice never holds it for
/// more than the few milliseconds its scripts take.
extension RedisCountdownStore {
    /// Saves per pipelined slice.
    static let saveSlice = 500

    public func saveAll(_ records: [StoredCountdown]) throws {
        for record in records { try checkStorable(record) }
        guard !records.isEmpty else { return }
        let shift = try shiftForOperation()
        var start = 0
        while start < records.count {
            let slice = records[start..<min(start + Self.saveSlice, records.count)]
            do {
                try saveSlice(slice, shift: shift)
            } catch {
                throw PartialSaveError(stored: start, total: records.count, underlying: error)
            }
            start = slice.endIndex
        }
    }

    private func saveSlice(_ records: ArraySlice<StoredCountdown>, shift: Nanoseconds) throws {
        guard let connection, !answersFromCache, records.count > 1 else {
            // Offline (queued), or one alone: as `save` does it, with the queue's
            // rows on disk written together.
            try queueingTogether { for record in records { try save(record) } }
            return
        }
        if scriptSHA == nil {
            scriptSHA = try connection.command(["SCRIPT", "LOAD", RedisScripts.compareAndSet]).string
        }
        var sent: [(record: StoredCountdown, sequence: Int)] = []
        var replied = 0
        do {
            for countdown in records {
                let record = RedisRecord.shifted(countdown, by: shift)
                used.insert(CountdownID(record.id))
                forgetReadAhead(record.id)
                let sequence = nextSequence()
                try connection.send(["EVALSHA", scriptSHA ?? "", "2", Self.hashKey, writerKey, record.id, "",
                                     RedisRecord.encode(record), channel, "any", String(sequence)])
                sent.append((record, sequence))
            }
            while replied < sent.count {
                let reply = try connection.reply()
                let record = sent[replied].record
                replied += 1
                if case .error(let e) = reply {
                    // A server that forgot its scripts (NOSCRIPT): this one and the rest one by one.
                    guard e.hasPrefix("NOSCRIPT") else { throw RedisError(connectionLost: false, message: "\(url): \(e)") }
                    scriptSHA = nil
                    let first = replied - 1
                    while replied < sent.count { _ = try connection.reply(); replied += 1 }
                    for (rest, _) in sent[first...] {
                        try write(id: rest.id, before: cache[CountdownID(rest.id)], after: rest, unconditional: true)
                    }
                    return
                }
                cache[CountdownID(record.id)] = record
            }
        } catch let error as RedisError where error.connectionLost {
            // Replies lost, not necessarily the changes: each is queued under its
            // own sequence number and applied at most once when sent again; what
            // was never sent is queued as a save made offline.
            wentOffline(error)
            for (record, sequence) in sent[replied...] {
                try queue(PendingChange(id: record.id, before: nil, after: record, instant: clock.serverNow(),
                                        unconditional: true, sequence: sequence))
            }
            for countdown in records.dropFirst(sent.count) { try save(countdown) }
        }
    }
}
