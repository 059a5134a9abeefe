import CountdownCore

/// `cdscript clear` on Redis, online: the countdowns found finished are removed a
/// slice at a time in two round trips (HMGET, then the compare-and-set script for
/// each, pipelined), each only if it is still finished and still exactly what was
/// read (another process may have resumed or appended to it since). Removing each
/// with a change of its own took four round trips apiece.
extension RedisCountdownStore {
    /// Ids removed per slice.
    static let clearSlice = 1_000

    /// Removes the countdowns of `ids` that are finished by `now` (local terms;
    /// `shift` = server - local); returns the ids removed, in the order given.
    func removeFinished(_ ids: [String], at now: StoreInstant, shift: Nanoseconds) throws -> [String] {
        var removed: [String] = []
        var start = 0
        while start < ids.count {
            let slice = Array(ids[start..<min(start + Self.clearSlice, ids.count)])
            start += slice.count
            guard let connection, !answersFromCache else {
                // Gone offline part way: the rest as changes of their own (queued).
                removed += try removeCandidates(finished: Array(slice + ids[start...]), unreadable: [], at: now).finished
                return removed
            }
            do {
                removed += try removeSlice(slice, at: now, shift: shift, connection: connection)
            } catch let error as RedisError where error.connectionLost {
                wentOffline(error)
                removed += try removeCandidates(finished: Array(slice + ids[start...]), unreadable: [], at: now).finished
                return removed
            }
        }
        return removed
    }

    private func removeSlice(_ ids: [String], at now: StoreInstant, shift: Nanoseconds, connection: RedisConnection) throws -> [String] {
        guard case .array(let values) = try connection.command(["HMGET", Self.hashKey] + ids), values.count == ids.count else {
            throw RedisError(connectionLost: false, message: "\(url): unexpected reply to HMGET")
        }
        // What is still finished, with the exact text it is stored as.
        var candidates: [(id: String, stored: String)] = []
        for (id, value) in zip(ids, values) {
            markUsed(id)
            guard let text = value.string, let record = RedisRecord.decode(id: id, text),
                  RedisRecord.shifted(record, by: -shift).effectiveState(at: now) == .finished else { continue }
            candidates.append((id, text))
        }
        if scriptSHA == nil {
            scriptSHA = try connection.command(["SCRIPT", "LOAD", RedisScripts.compareAndSet]).string
        }
        for candidate in candidates {
            forgetReadAhead(candidate.id)
            try connection.send(["EVALSHA", scriptSHA ?? "", "2", Self.hashKey, writerKey, candidate.id, candidate.stored,
                                 "", channel, "compare", String(nextSequence())])
        }
        var removed: [String] = []
        var recheck: [String] = []
        var forgotten = false
        for candidate in candidates {
            let reply = try connection.reply()
            if case .array(let parts) = reply, parts.count == 2, case .integer(let status) = parts[0] {
                if status == 1 {
                    removed.append(candidate.id)
                    cache[CountdownID(candidate.id)] = nil
                } else {
                    // Changed since it was read: it may no longer be finished.
                    recheck.append(candidate.id)
                }
            } else if case .error(let e) = reply, e.hasPrefix("NOSCRIPT") {
                forgotten = true
                recheck.append(candidate.id)
            } else if case .error(let e) = reply {
                throw RedisError(connectionLost: false, message: "\(url): \(e)")
            }
        }
        if forgotten { scriptSHA = nil }
        if !removed.isEmpty { try confirmOnReplicas(connection, subject: "\(removed.count) finished countdown\(removed.count == 1 ? "" : "s") removed") }
        if !recheck.isEmpty {
            let again = try removeCandidates(finished: recheck, unreadable: [], at: now).finished
            let gone = Set((removed + again).map { CountdownID($0) })
            removed = ids.filter { gone.contains(CountdownID($0)) }
        }
        return removed
    }
}
