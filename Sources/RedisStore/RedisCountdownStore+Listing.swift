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
}
