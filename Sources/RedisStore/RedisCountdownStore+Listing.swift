import CountdownCore

/// Reading every countdown in pieces: `HSCAN` with a `COUNT`, never one
/// `HGETALL`, which at 100,000 countdowns held the server for 46-72 ms while
/// every other client waited. Each piece costs the server about as much as one
/// small command; the whole read is not atomic, which a listing never needed:
/// a countdown changed meanwhile shows as it was or as it is.
extension RedisCountdownStore {
    /// Fields asked for per `HSCAN` (a hint: the server may answer a few more),
    /// and ids per `HMGET` of a listing. Measured on a 2-core machine at load
    /// average 30-36 over 100,000 countdowns (SLOWLOG, threshold 0): an `HSCAN`
    /// costs the server about 1.3 µs a field, so COUNT 500 took 0.7 ms (median),
    /// 1.4 ms (99th percentile), none of 600 over 3 ms, where COUNT 1000 took 1.3 ms,
    /// 5.6 ms and 4 of 300 over 3 ms; the server's total for a whole scan is the same
    /// (about 140 ms). An `HMGET` of 500 took 0.26 ms.
    static let scanCount = 500

    /// Every record on the server, decoded (readable or not), as `visit(id, record, unreadable)`;
    /// in no order; an id may come more than once (HSCAN returns a field again when
    /// the hash is resized meanwhile). Throws `RedisError` with `connectionLost` when the connection goes.
    func scanAll(_ connection: RedisConnection,
                 _ visit: (String, StoredCountdown?, UnreadableCountdown?) throws -> Void) throws {
        try forEachSlice(connection, command: .hash(Self.hashKey)) { items in
            var i = 0
            while i + 1 < items.count {
                defer { i += 2 }
                guard let id = items[i].string else { continue }
                do {
                    if let record = try decode(id: id, items[i + 1]) { try visit(id, record, nil) }
                } catch let error as UnreadableCountdown {
                    try visit(id, nil, error)
                }
            }
        }
    }

    /// The whole store read in pieces, in server terms, and the records that cannot be read.
    /// Nil when the connection went meanwhile (the store is offline then).
    func scannedListing() throws -> (all: [CountdownID: StoredCountdown], unreadable: [UnreadableCountdown])? {
        guard let connection, !answersFromCache else { return nil }
        var all: [CountdownID: StoredCountdown] = [:]
        var unreadable: [UnreadableCountdown] = []
        do {
            try scanAll(connection) { id, record, bad in
                if let record { all[CountdownID(id)] = record }
                if let bad { unreadable.append(bad) }
            }
        } catch let error as RedisError where error.connectionLost {
            wentOffline(error)
            return nil
        }
        return (all, unreadable)
    }

    /// The listing in id order, a batch at a time, holding ids rather than
    /// records: a first pass collects the ids (`HSCAN`, values read and dropped
    /// slice by slice), which are sorted; a second reads the records in that order,
    /// `scanCount` per `HMGET`, and hands them on. At 100,000 countdowns the ids are
    /// a few megabytes where the records were about 60.
    ///
    /// The two passes are not one picture, which a listing never promised: a
    /// countdown removed between them is skipped, one changed between them is
    /// listed as it is at the second pass, and one added between them is not
    /// listed. Offline: what this process last saw.
    public func forEachListed(batchSize: Int, _ body: (StoredCountdownListing) throws -> Bool) throws {
        let shift = try shiftForOperation()
        guard let connection, !answersFromCache else {
            return try StoredCountdownListing.batches(of: try listing(), size: batchSize, body)
        }
        var ids: [String] = []
        do {
            try scanIDs(connection) { ids.append($0) }
            Self.sortOnce(&ids)
            let size = max(1, min(batchSize, Self.scanCount))
            var start = 0
            while start < ids.count {
                let slice = ids[start..<min(start + size, ids.count)]
                start = slice.endIndex
                guard case .array(let values) = try connection.command(["HMGET", Self.hashKey] + slice), values.count == slice.count else {
                    throw RedisError(connectionLost: false, message: "\(url): unexpected reply to HMGET")
                }
                largestSlice = max(largestSlice, values.count)
                var batch = StoredCountdownListing(countdowns: [])
                for (id, value) in zip(slice, values) {
                    recordsRead += 1
                    do {
                        // Nil: removed since the first pass.
                        if let record = try decode(id: id, value) { batch.countdowns.append(RedisRecord.shifted(record, by: -shift)) }
                    } catch let error as UnreadableCountdown {
                        batch.unreadable.append(error)
                    }
                }
                if batch.countdowns.isEmpty && batch.unreadable.isEmpty { continue }
                guard try body(batch) else { return }
            }
        } catch let error as RedisError where error.connectionLost {
            // Part of the listing may be out: what follows cannot be told, so it fails.
            wentOffline(error)
            throw error
        }
    }

    /// Puts `ids` in byte order, each once, in place (no copy of 100,000 ids).
    static func sortOnce(_ ids: inout [String]) {
        ids.sort { $0.precedesInBytes($1) }
        var kept = 0
        for i in ids.indices where i == 0 || !ids[i].sameBytes(as: ids[kept - 1]) {
            ids.swapAt(kept, i)
            kept += 1
        }
        ids.removeLast(ids.count - kept)
    }

    /// Every id in the hash, in no order, read in `HSCAN` slices; an id may come
    /// more than once (when the hash is resized meanwhile).
    func scanIDs(_ connection: RedisConnection, _ visit: (String) throws -> Void) throws {
        try forEachSlice(connection, command: .hash(Self.hashKey)) { items in
            var i = 0
            while i + 1 < items.count {
                if let id = items[i].string { try visit(id) }
                i += 2
            }
        }
    }

    /// What is read a slice at a time: the fields and values of a hash (`HSCAN`),
    /// or the keys matching a pattern (`SCAN ... MATCH`); `scanCount` per slice.
    enum ScanCommand {
        case hash(String)
        case keys(matching: String)

        /// The command for the slice at `cursor`.
        func arguments(cursor: String) -> [String] {
            let count = ["COUNT", String(RedisCountdownStore.scanCount)]
            switch self {
            case .hash(let key): return ["HSCAN", key, cursor] + count
            case .keys(let pattern): return ["SCAN", cursor, "MATCH", pattern] + count
            }
        }
    }

    /// One slice: the next cursor, and the items (an `HSCAN`'s fields and values,
    /// alternating; a `SCAN`'s keys).
    func scanSlice(_ connection: RedisConnection, command: ScanCommand, cursor: String) throws(RedisError) -> (next: String, items: [RedisReply]) {
        let arguments = command.arguments(cursor: cursor)
        let reply = try connection.command(arguments)
        guard case .array(let parts) = reply, parts.count == 2, let next = parts[0].string,
              case .array(let items) = parts[1] else {
            if case .error(let e) = reply { throw RedisError(connectionLost: false, message: "\(url): \(e)") }
            throw RedisError(connectionLost: false, message: "\(url): unexpected reply to \(arguments[0])")
        }
        largestSlice = max(largestSlice, items.count)
        return (next, items)
    }

    /// Every slice of `command`, from cursor 0 until the server answers 0, as
    /// `body(items)`. Like the server, may hand an item on more than once.
    func forEachSlice(_ connection: RedisConnection, command: ScanCommand, _ body: ([RedisReply]) throws -> Void) throws {
        var cursor = "0"
        repeat {
            let (next, items) = try scanSlice(connection, command: command, cursor: cursor)
            try body(items)
            cursor = next
        } while cursor != "0"
    }

    /// What `cdscript clear` removes, found in one pass over the store (HSCAN pieces,
    /// each value read once: fewer commands than the protocol's batches of `forEachListed`): the countdowns finished by `now` and the records that cannot be
    /// read. Each is then removed by its own change, only if it still qualifies.
    /// With nothing to clear, nothing is written.
    public func clear(at now: StoreInstant) throws -> (finished: [String], unreadable: [UnreadableCountdown]) {
        let shift = try shiftForOperation()
        var finishedIDs: [String] = []
        var unreadable: [UnreadableCountdown] = []
        if let connection, !answersFromCache {
            // Only what qualifies is kept, not every record read.
            do {
                try scanAll(connection) { id, record, bad in
                    if let record, RedisRecord.shifted(record, by: -shift).effectiveState(at: now) == .finished { finishedIDs.append(id) }
                    if let bad { unreadable.append(bad) }
                }
            } catch let error as RedisError where error.connectionLost {
                wentOffline(error)
                finishedIDs = []
                unreadable = []
            }
        }
        if connection == nil || answersFromCache {
            finishedIDs = allLastSeen.filter { RedisRecord.shifted($0, by: -shift).effectiveState(at: now) == .finished }.map(\.id)
        }
        Self.sortOnce(&finishedIDs)
        // Each unreadable id once (a rehash may show one twice), in byte order.
        var named: Set<CountdownID> = []
        let unreadableOnce = unreadable.sorted { $0.id.precedesInBytes($1.id) }.filter { named.insert(CountdownID($0.id)).inserted }
        guard connection != nil, !answersFromCache else {
            return try removeCandidates(finished: finishedIDs, unreadable: unreadableOnce, at: now)
        }
        // Online: two round trips per slice (RedisCountdownStore+Clearing.swift).
        let removed = try removeFinished(finishedIDs, at: now, shift: shift)
        let gone = try removeCandidates(finished: [], unreadable: unreadableOnce, at: now)
        return (removed, gone.unreadable)
    }
}
