import CountdownCore

/// Reading every countdown in pieces: `HSCAN` with a `COUNT`, never one
/// `HGETALL`, which at 100,000 countdowns held the server for 46-72 ms while
/// every other client waited. Each piece costs the server about as much as one
/// small command; the whole read is not atomic, which a listing never needed:
/// a countdown changed meanwhile shows as it was or as it is.
extension RedisCountdownStore {
    /// Fields asked for per `HSCAN` (a hint: the server may answer a few more).
    /// About 100 kB of reply each, well under a millisecond of the server's time.
    static let scanCount = 1000

    /// Every record on the server, decoded (readable or not), as `visit(id, record, unreadable)`;
    /// in no order, each id once. Throws `RedisError` with `connectionLost` when the connection goes.
    func scanAll(_ connection: RedisConnection,
                 _ visit: (String, StoredCountdown?, UnreadableCountdown?) throws -> Void) throws {
        var cursor = "0"
        // HSCAN may return a field more than once (when the hash is resized meanwhile).
        var seen: Set<CountdownID> = []
        repeat {
            let reply = try connection.command(["HSCAN", Self.hashKey, cursor, "COUNT", String(Self.scanCount)])
            guard case .array(let parts) = reply, parts.count == 2, let next = parts[0].string,
                  case .array(let items) = parts[1] else {
                if case .error(let e) = reply { throw RedisError(connectionLost: false, message: "\(url): \(e)") }
                throw RedisError(connectionLost: false, message: "\(url): unexpected reply to HSCAN")
            }
            var i = 0
            while i + 1 < items.count {
                defer { i += 2 }
                guard let id = items[i].string, seen.insert(CountdownID(id)).inserted else { continue }
                do {
                    if let record = try decode(id: id, items[i + 1]) { try visit(id, record, nil) }
                } catch let error as UnreadableCountdown {
                    try visit(id, nil, error)
                }
            }
            cursor = next
        } while cursor != "0"
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

    /// The listing in id order, a batch at a time. Redis keeps no order, so the
    /// records are read (in pieces) and sorted first; the batches spare the
    /// caller building its output for all of them at once.
    public func forEachListed(batchSize: Int, _ body: (StoredCountdownListing) throws -> Bool) throws {
        try StoredCountdownListing.batches(of: try listing(), size: batchSize, body)
    }

    /// What `cdscript clear` removes, found in one pass over the store (read in
    /// pieces): the countdowns finished by `now` and the records that cannot be
    /// read. Each is then removed by its own change, only if it still qualifies.
    /// With nothing to clear, nothing is written.
    public func clear(at now: StoreInstant) throws -> (finished: [String], unreadable: [UnreadableCountdown]) {
        let shift = try shiftForOperation()
        var finishedIDs: [String] = []
        var unreadable: [UnreadableCountdown] = []
        if let scanned = try scannedListing() {
            cache = scanned.all
            for record in scanned.all.values where RedisRecord.shifted(record, by: -shift).effectiveState(at: now) == .finished {
                finishedIDs.append(record.id)
            }
            unreadable = scanned.unreadable
        } else {
            finishedIDs = cache.values.filter { RedisRecord.shifted($0, by: -shift).effectiveState(at: now) == .finished }.map(\.id)
        }
        var removed: [String] = []
        for id in finishedIDs.sorted(by: { $0.precedesInBytes($1) }) {
            let gone = try modify(id: id) { stored -> Bool in
                guard let s = stored, s.effectiveState(at: now) == .finished else { return false }
                stored = nil
                return true
            }
            if gone { removed.append(id) }
        }
        var removedUnreadable: [UnreadableCountdown] = []
        for record in unreadable.sorted(by: { $0.id.precedesInBytes($1.id) }) where try delete(id: record.id) {
            removedUnreadable.append(record)
        }
        return (removed, removedUnreadable)
    }
}
