import CLinux
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
/// their record out of it. Records are decoded as they arrive, into a compact
/// table (`StoredCountdownTable`: a million in a few large blocks, let go at
/// once, where a million texts were a heap block each, freed one by one into
/// holes); a record that cannot be read is kept as its text, so that its load
/// reports it as the server's answer would. A record is handed out once,
/// and once the run of loads has had as many as the copy holds (less the loads
/// before it: a run names each id once), the copy goes, as part of the loads:
/// the first change seen after them costs what it reads, not a pass to free it.
extension RedisCountdownStore {
    /// Loads since the feed last drained before a read-ahead is considered; then
    /// at each doubling, as long as the hash is at most `readAheadRatio` times the
    /// loads so far (reading it costs about that many loads).
    static let readAheadAfter = 256
    static let readAheadRatio = 16

    /// The hash as read ahead. Every id read is marked in `records`, so that one
    /// handed out or written since (its record taken, the entry left) is told
    /// apart from one that was not stored.
    struct ReadAheadCopy {
        var records = StoredCountdownTable()
        /// Values that are not a readable record, as the server sent them; "":
        /// handed out already, or written since by this process.
        var texts: [CountdownID: String] = [:]
        var count: Int { records.entryCount + texts.count }
    }

    /// What the copy answers for one id.
    enum ReadAheadAnswer {
        /// The record, or nil: not stored when the copy was read.
        case record(StoredCountdown?)
        /// A value that is not a readable record, for `decode` to name.
        case text(String)
    }

    /// The answer of the read-ahead copy for `id`: nil when there is none, or
    /// when it has handed out `id` already (the caller asks the server).
    func readAhead(_ id: String, connection: RedisConnection) throws(RedisError) -> ReadAheadAnswer? {
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
        if let value = readAheadCopy!.texts[key] {
            guard !value.isEmpty else { return nil }
            readAheadCopy!.texts[key] = ""
            spendOne()
            return .text(value)
        }
        guard readAheadCopy!.records.contains(key) else { return .record(nil) }
        guard let record = readAheadCopy!.records[key] else { return nil }
        readAheadCopy!.records[key] = nil
        spendOne()
        return .record(record)
    }

    /// One record of the copy is no longer in it; after the last, the copy goes.
    private func spendOne() {
        readAheadLeft -= 1
        guard readAheadLeft == 0 else { return }
        readAheadCopy = nil
        readAheadSpent = true
        // Its texts were freed one by one as loads took them: the pages they
        // leave empty go back to the kernel, not resident for the rest of the run.
        _ = cdl_heap_give_back_free()
    }

    private func readAheadNow(_ connection: RedisConnection) throws(RedisError) {
        guard case .integer(let length) = try connection.command(["HLEN", Self.hashKey]),
              length <= Int64(Self.readAheadRatio * loadsSinceDrain) else { return }
        var copy = ReadAheadCopy()
        copy.records.reserveCapacity(Int(length))
        // The loads that follow put their records in the cache, marked:
        // room made once, not by doubling (growing it was a tenth of fetching 100,000).
        // Not for a process that runs what it loads: the copy keeps none of those.
        if holder == nil { cache.reserveCapacity(Int(length)) }
        do {
            try forEachSlice(connection, command: .hash(Self.hashKey)) { items in
                var i = 0
                while i + 1 < items.count {
                    if let id = items[i].string, let value = items[i + 1].string {
                        let key = CountdownID(id)
                        if let record = try? RedisRecord.read(id: id, value) {
                            copy.records[key] = record
                            copy.records.mark(key)
                        } else {
                            copy.texts[key] = value
                        }
                    }
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
        let hadCopy = readAheadCopy != nil
        readAheadCopy = nil
        if hadCopy { _ = cdl_heap_give_back_free() }
        readAheadSpent = false
    }

    /// This process wrote `id`: the copy no longer has its latest record.
    func forgetReadAhead(_ id: String) {
        guard readAheadCopy != nil else { return }
        let key = CountdownID(id)
        if let value = readAheadCopy!.texts[key] {
            guard !value.isEmpty else { return }
            readAheadCopy!.texts[key] = ""
            spendOne()
        } else if readAheadCopy!.records[key] != nil {
            readAheadCopy!.records[key] = nil
            spendOne()
        } else if !readAheadCopy!.records.contains(key) {
            // Not stored when it was read: the server is asked from now on.
            readAheadCopy!.texts[key] = ""
        }
    }
}
