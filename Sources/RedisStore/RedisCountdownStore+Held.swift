import CountdownCore

/// What this process last saw of each countdown, in two places: the store's copy
/// (`cache`) for the countdowns it read, listed or changed, and, for those the
/// process runs, the process itself (`holder`). A process that fetched a million
/// countdowns keeps no second record of each (issue 53: 80 bytes a countdown).
///
/// Why the process's view serves where the copy did: while the server answers,
/// `modify` compares against what the server holds, read afresh, never against
/// the copy. While it does not, a change queued carries the record it was made
/// from (the process's view, as it was before the change) and is rebased on
/// what the server holds when it is sent (`replay`), as a change made from a
/// stale copy always was; what the server lost is written back from the view.
extension RedisCountdownStore: HandsOverHeldCountdowns {
    public func handedOver(id: String) {
        cache.forget(CountdownID(id))
    }

    public func holderGoes(_ going: any HeldCountdowns) {
        guard let holder, holder === going else { return }
        // No copy is made of what it ran: a run ends within a signal's grace, and
        // copying 20,000 took longer in a debug build. What was queued for them
        // is still written back should the server turn out to have lost its data
        // (`serverLostItsData`); one this process ran and never changed is not.
        self.holder = nil
    }

    /// What this process last saw of `id`, server terms: the copy's record, or the
    /// process's own while it runs it.
    func lastSeen(_ id: String) -> StoredCountdown? {
        let key = CountdownID(id)
        if let record = cache[key] { return record }
        guard let holder, let record = holder.heldRecord(id: id) else { return nil }
        return RedisRecord.shifted(record, by: clock.wallShift())
    }

    /// Keeps `record` as what this process last saw of `id`, unless the process
    /// runs it: then the copy keeps nothing of it.
    func remember(_ id: String, _ record: StoredCountdown?) {
        if let holder, holder.holds(id: id) {
            cache.forget(CountdownID(id))
        } else {
            cache[CountdownID(id)] = record
        }
    }

    /// Marks `id` as used by this process (written back should the server lose
    /// its data), unless the process runs it: every countdown it runs is written back.
    func markUsed(_ id: String) {
        if let holder, holder.holds(id: id) { return }
        cache.mark(CountdownID(id))
    }

    /// Every record this process last saw: the copy's and the process's own.
    var allLastSeen: [StoredCountdown] {
        var all = cache.records
        guard let holder else { return all }
        let shift = clock.wallShift()
        for id in holder.heldIDs where cache[CountdownID(id)] == nil {
            if let record = holder.heldRecord(id: id) { all.append(RedisRecord.shifted(record, by: shift)) }
        }
        return all
    }

    /// The ids this process used, and the records it last saw of them: what is
    /// written back when the server lost its data.
    var usedLastSeen: [(id: String, record: StoredCountdown?)] {
        var used = cache.markedIDs.map { (id: $0.string, record: lastSeen($0.string)) }
        guard let holder else { return used }
        let shift = clock.wallShift()
        for id in holder.heldIDs where !cache.contains(CountdownID(id)) {
            used.append((id, holder.heldRecord(id: id).map { RedisRecord.shifted($0, by: shift) }))
        }
        return used
    }

    /// Puts a listing's records in place of the copy's, but for those the process runs.
    func rememberListed(_ records: [CountdownID: StoredCountdown]) {
        guard let holder else { return cache.replaceRecords(with: records) }
        cache.replaceRecords(with: records.filter { !holder.holds(id: $0.key.string) })
    }
}
