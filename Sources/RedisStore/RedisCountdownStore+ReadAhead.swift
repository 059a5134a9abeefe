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
/// their record out of it.
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
        if readAheadCopy == nil, feedSubscribed, loadsSinceDrain >= Self.readAheadAfter,
           loadsSinceDrain & (loadsSinceDrain - 1) == 0 {
            try readAheadNow(connection)
        }
        guard let copy = readAheadCopy else { return nil }
        // Not in the copy: not stored when it was read (`.null`), as the server
        // would say; written since by this process (""): the server is asked.
        guard let value = copy[CountdownID(id)] else { return .null }
        return value.isEmpty ? nil : .string(value)
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
        readAheadCopy = copy
    }

    /// The feed drained: what it did not report since the copy was read is not known.
    func dropReadAhead() {
        loadsSinceDrain = 0
        readAheadCopy = nil
    }

    /// This process wrote `id`: the copy no longer has its latest record.
    func forgetReadAhead(_ id: String) {
        if readAheadCopy != nil { readAheadCopy?[CountdownID(id)] = "" }
    }
}
