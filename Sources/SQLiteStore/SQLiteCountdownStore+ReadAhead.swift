import CLinux
import CountdownCore
import SQLiteAccess

/// Many loads in a row (a script fetching 100,000 countdowns one `fetch` at a
/// time): past a few hundred, the whole table is read ahead once, in one read
/// transaction through one statement, decoded by position, and the following
/// loads are answered from that copy instead of a read transaction (and its
/// file locks) apiece.
///
/// The copy is never older than what the change log has yet to tell: it is
/// taken only while the store's changes are followed (`changeLogPosition` is
/// set, so every change committed after the copy was read is in the log past
/// that position), and dropped at the next look at the log (`changesSinceLastLook`,
/// where the changes since are reported and the countdowns held re-read), at any
/// sign of a change the log cannot name, and at any write by this process. A
/// record is handed out once; a second load of the same id reads the database.
/// Once the run of loads has had as many records from it as it holds (less the
/// loads before it: a script fetching them all names each id once), the copy
/// goes, as part of the loads: the first change seen after them then costs what
/// it reads, not a pass to free a copy of the whole table.
extension SQLiteCountdownStore {
    /// Loads since the change log was last looked at before a read-ahead is
    /// considered; then at each doubling, as long as the table holds at most
    /// `readAheadRatio` times the loads so far (reading it all costs about that
    /// many single loads).
    public static let readAheadAfter = 256
    public static let readAheadRatio = 16

    /// The whole table as read ahead. Every id read is marked in `records`, so
    /// that one handed out already (its record taken, the entry left) is told
    /// apart from one that was not stored: a second load of it asks the
    /// database. Compact (`StoredCountdownTable`): a million records in a few
    /// large blocks, let go at once when the copy goes, not a heap block or
    /// two per record that stay resident as holes after each is freed.
    struct ReadAheadCopy {
        var records = StoredCountdownTable()
        /// Rows that could not be read, by id: each load of one reports it.
        var unreadable: [CountdownID: StoreError] = [:]
        var count: Int { records.entryCount + unreadable.count }
    }

    /// The answer of the read-ahead copy for `id`, or nil when there is no copy
    /// (the caller asks the database). An id not in the copy was not stored when
    /// it was read.
    func readAhead(_ id: String) -> Result<StoredCountdown?, StoreError>? {
        loadsSinceLook += 1
        if readAheadCopy == nil, !readAheadSpent, changeLogPosition != nil, loadsSinceLook >= Self.readAheadAfter,
           loadsSinceLook & (loadsSinceLook - 1) == 0 {
            readAheadNow()
        }
        guard readAheadCopy != nil else { return nil }
        let key = CountdownID(id)
        if let error = readAheadCopy!.unreadable[key] { return .failure(error) }
        guard readAheadCopy!.records.contains(key) else { return .success(nil) }
        // Handed out already: the database is asked.
        guard let countdown = readAheadCopy!.records[key] else { return nil }
        readAheadCopy!.records[key] = nil
        readAheadLeft -= 1
        if readAheadLeft == 0 {
            // The run has had as many records as the copy holds: it is over.
            readAheadCopy = nil
            readAheadSpent = true
            _ = cdl_heap_give_back_free()
        }
        return .success(countdown)
    }

    /// Reads every row into the copy, unless the table is too large for the
    /// loads so far. A failure leaves no copy: the loads then ask the database,
    /// which reports it.
    private func readAheadNow() {
        let limit = Self.readAheadRatio * loadsSinceLook
        let copy = try? access(readOnly: true) { db -> ReadAheadCopy? in
            let count = Int(try db.value("SELECT count(*) FROM countdown")?.integer ?? 0)
            guard count <= limit else { return nil }
            var copy = ReadAheadCopy()
            copy.records.reserveCapacity(count)
            var stored = 0
            try db.cached(StoredCountdown.selectSQL).forEachRow { row in
                rowsRead += 1
                // A row whose id is not text answers no load by a text id.
                guard let id = row.value(at: 0).text else { return true }
                let key = CountdownID(id)
                do throws(StoreError) {
                    copy.records[key] = try StoredCountdown(columnsOf: row, path: path)
                    copy.records.mark(key)
                    stored += 1
                } catch {
                    copy.unreadable[key] = error
                }
                return true
            }
            // A run of loads names each id once: those before the copy will not ask it (counted with the one that reads it: at worst the last load reads the database).
            readAheadLeft = max(1, stored - loadsSinceLook)
            return copy
        }
        readAheadCopy = copy ?? nil
    }

    /// What was read ahead may no longer be what is stored.
    func dropReadAhead() {
        loadsSinceLook = 0
        readAheadDroppedAtLook += readAheadCopy?.count ?? 0
        let hadCopy = readAheadCopy != nil
        readAheadCopy = nil
        if hadCopy { _ = cdl_heap_give_back_free() }
        readAheadSpent = false
    }
}
