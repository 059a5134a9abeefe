import CountdownCore

/// What the Lua host asks of a store (`CountdownStoreBackend`): answered by the
/// server, or, offline and while queued changes are sent, from what this process
/// last saw.
extension RedisCountdownStore {
    public func load(id: String) throws -> StoredCountdown? {
        let shift = try shiftForOperation()
        markUsed(id)
        if let connection, !answersFromCache {
            do {
                let answer = try readAhead(id, connection: connection)
                let reply: RedisReply
                switch answer {
                case .record?: reply = .null
                case .text(let value)?: reply = .string(value)
                case nil: reply = try connection.command(["HGET", Self.hashKey, id])
                }
                recordsRead += 1
                let record: StoredCountdown?
                if case .record(let found)? = answer { record = found } else { record = try decode(id: id, reply) }
                remember(id, record)
                return record.map { RedisRecord.shifted($0, by: -shift) }
            } catch let error as RedisError where error.connectionLost {
                wentOffline(error)
            }
        }
        return lastSeen(id).map { RedisRecord.shifted($0, by: -shift) }
    }

    /// The countdowns stored under `ids`, with one `HMGET` per slice of
    /// `loadSlice` ids (each a short command: the server is never held long).
    /// Offline: what this process last saw.
    public func loadEach(ids: [String]) throws -> [(id: String, record: Result<StoredCountdown?, any Error>)] {
        let shift = try shiftForOperation()
        for id in ids { markUsed(id) }
        if let connection, !answersFromCache {
            do {
                var loaded: [(id: String, record: Result<StoredCountdown?, any Error>)] = []
                loaded.reserveCapacity(ids.count)
                var start = 0
                while start < ids.count {
                    let slice = ids[start..<min(start + Self.loadSlice, ids.count)]
                    start = slice.endIndex
                    guard case .array(let values) = try connection.command(["HMGET", Self.hashKey] + slice), values.count == slice.count else {
                        throw RedisError(connectionLost: false, message: "\(url): unexpected reply to HMGET")
                    }
                    for (id, value) in zip(slice, values) {
                        let record = Result { try decode(id: id, value) }
                        if case .success(let found) = record { remember(id, found) }
                        recordsRead += 1
                        loaded.append((id, record.map { $0.map { RedisRecord.shifted($0, by: -shift) } }))
                    }
                }
                return loaded
            } catch let error as RedisError where error.connectionLost {
                wentOffline(error)
            }
        }
        return ids.map { id in (id, .success(lastSeen(id).map { RedisRecord.shifted($0, by: -shift) })) }
    }

    /// Every stored countdown; fails on the first record that cannot be read
    /// (`listing()` reads past such records).
    public func list() throws -> [StoredCountdown] {
        let listing = try listing()
        if let first = listing.unreadable.first { throw first }
        return listing.countdowns
    }

    /// The countdowns that can be read, and the records that cannot, each named,
    /// read in pieces (`scanAll`). Offline: what this process last saw.
    public func listing() throws -> StoredCountdownListing {
        let shift = try shiftForOperation()
        if let scanned = try scannedListing() {
            rememberListed(scanned.all)
            return StoredCountdownListing(
                countdowns: scanned.all.values.sorted { $0.id.precedesInBytes($1.id) }.map { RedisRecord.shifted($0, by: -shift) },
                unreadable: scanned.unreadable.sorted { $0.id.precedesInBytes($1.id) })
        }
        return StoredCountdownListing(countdowns: allLastSeen.sorted { $0.id.precedesInBytes($1.id) }.map { RedisRecord.shifted($0, by: -shift) })
    }

    public func save(_ countdown: StoredCountdown) throws {
        try checkStorable(countdown)
        let shift = try shiftForOperation()
        let record = RedisRecord.shifted(countdown, by: shift)
        markUsed(countdown.id)
        // Unconditional: what it replaces matters only to a queued change (a
        // countdown this process runs is not looked up for nothing at its start).
        let before = answersFromCache ? lastSeen(countdown.id) : cache[CountdownID(countdown.id)]
        try write(id: countdown.id, before: before, after: record, unconditional: true)
    }

    @discardableResult
    public func delete(id: String) throws -> Bool {
        _ = try shiftForOperation()
        markUsed(id)
        if answersFromCache {
            let before = lastSeen(id)
            try write(id: id, before: before, after: nil, unconditional: true)
            return before != nil
        }
        return try write(id: id, before: nil, after: nil, unconditional: true)
    }

    @discardableResult
    public func modify<Result>(id: String, _ change: (inout StoredCountdown?) -> Result) throws -> Result {
        var shift = try shiftForOperation()
        markUsed(id)
        var attempts = 0
        while true {
            attempts += 1
            // Read what is stored (or, offline, what was last seen), change it in local terms.
            let before: StoredCountdown?
            if let connection, !answersFromCache {
                do {
                    before = try decode(id: id, try connection.command(["HGET", Self.hashKey, id]))
                } catch let error as RedisError where error.connectionLost {
                    wentOffline(error)
                    continue
                }
            } else {
                before = lastSeen(id)
            }
            var record = before.map { RedisRecord.shifted($0, by: -shift) }
            let result = change(&record)
            let after = record.map { RedisRecord.shifted($0, by: shift) }
            if after == before { return result }
            if let record { try checkStorable(record) }
            if try write(id: id, before: before, after: after, unconditional: false) { return result }
            if attempts >= attemptsPerChange { throw gaveUp(changing: id) }
            shift = clock.wallShift()
        }
    }

    /// Nothing is written that could not be read back.
    func checkStorable(_ countdown: StoredCountdown) throws {
        do {
            try CountdownRange.check(countdown)
        } catch {
            throw RedisError(connectionLost: false, message: "\(url): the countdown '\(VisibleText.escaped(countdown.id))' cannot be stored: \(error)")
        }
    }

    func decode(id: String, _ reply: RedisReply) throws -> StoredCountdown? {
        switch reply {
        case .null: return nil
        case .string(let s) where s.isEmpty: return nil
        case .string(let s):
            do {
                return try RedisRecord.read(id: id, s)
            } catch {
                throw UnreadableCountdown(id: id, location: url.description, problem: "field \(error)")
            }
        case .error(let e): throw RedisError(connectionLost: false, message: "\(url): \(e)")
        default: throw RedisError(connectionLost: false, message: "\(url): unexpected reply \(reply)")
        }
    }
}
