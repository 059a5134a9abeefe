import CountdownCore

/// Many loads in a row (a script fetching 100,000 countdowns one `fetch` at a
/// time): past a few hundred, the hash is read ahead once, in `HSCAN` slices of a
/// millisecond of server time each (`scanCount`), and the following loads are answered
/// from that copy instead of one round trip apiece.
///
/// The copy is as fresh as what a change feed has not told yet: it is taken only
/// while a feed is subscribed (every change made after a record was read is
/// published to it), and dropped at the feed's next drain, where the changes
/// since are read again for the countdowns held. This process's own writes take
/// their record out of it. A record is handed out once (its text let go then),
/// and once the run of loads has had as many as the copy holds (less the loads
/// before it: a run names each id once), the copy goes, as part of the loads:
/// the first change seen after them costs what it reads, not a pass to free it.
extension RedisCountdownStore {
    /// Loads since the feed last drained before a read-ahead is considered; then
    /// at each doubling, as long as the hash is at most `readAheadRatio` times the
    /// loads so far (reading it costs about that many loads).
    static let readAheadAfter = 256
    static let readAheadRatio = 16

    /// The record of `id` from the read-ahead copy: nil when there is none, or
    /// when it does not have `id` (the caller asks the server).
    func readAhead(_ id: String, connection: RedisConnection) throws(RedisError) -> RedisReply? {
        loadsSinceDrain += 1
        if readAheadCopy == nil, !readAheadSpent, feedSubscribed, loadsSinceDrain >= Self.readAheadAfter,
           loadsSinceDrain & (loadsSinceDrain - 1) == 0 {
            try readAheadNow(connection)
        }
        guard readAheadCopy != nil else { return nil }
        // Not in the copy: not stored when it was read (`.null`), as the server
        // would say; handed out already or written since by this process (""):
        // the server is asked.
        let key = CountdownID(id)
        guard let value = readAheadCopy![key] else { return .null }
        guard !value.isEmpty else { return nil }
        readAheadCopy![key] = ""
        spendOne()
        return .string(value)
    }

    /// One record of the copy is no longer in it; after the last, the copy goes.
    private func spendOne() {
        readAheadLeft -= 1
        guard readAheadLeft == 0 else { return }
        readAheadCopy = nil
        readAheadSpent = true
    }

    private func readAheadNow(_ connection: RedisConnection) throws(RedisError) {
        guard case .integer(let length) = try connection.command(["HLEN", Self.hashKey]),
              length <= Int64(Self.readAheadRatio * loadsSinceDrain) else { return }
        var copy: [CountdownID: String] = [:]
        copy.reserveCapacity(Int(length))
        // The loads that follow put their records in the cache and their ids in `used`:
        // room made once, not by doubling (growing them was a tenth of fetching 100,000).
        cache.reserveCapacity(Int(length))
        used.reserveCapacity(Int(length))
        do {
            try forEachSlice(connection, command: .hash(Self.hashKey)) { items in
                var i = 0
                while i + 1 < items.count {
                    if let id = items[i].string, let value = items[i + 1].string { copy[CountdownID(id)] = value }
                    i += 2
                }
            }
        } catch let error as RedisError where error.connectionLost {
            throw error
        } catch {
            // The server said no (an error reply): loads ask it one by one.
            return
        }
        // A run of loads names each id once: those before the copy will not ask it (counted with the one that reads it: at worst the last load asks the server).
        readAheadLeft = max(1, copy.count - loadsSinceDrain)
        readAheadCopy = copy
    }

    /// The feed drained: what it did not report since the copy was read is not known.
    func dropReadAhead() {
        loadsSinceDrain = 0
        readAheadDroppedAtDrain += readAheadCopy?.count ?? 0
        readAheadCopy = nil
        readAheadSpent = false
    }

    /// This process wrote `id`: the copy no longer has its latest record.
    func forgetReadAhead(_ id: String) {
        guard readAheadCopy != nil else { return }
        let key = CountdownID(id)
        guard let value = readAheadCopy![key], !value.isEmpty else {
            // Not stored when it was read: the server is asked from now on.
            if readAheadCopy![key] == nil { readAheadCopy![key] = "" }
            return
        }
        readAheadCopy![key] = ""
        spendOne()
    }
}
