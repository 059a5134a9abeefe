import CountdownCore

/// Follows changes that other processes made to the stored countdowns this
/// process runs (`cdscript append/pause/resume/cancel`, another script's calls,
/// another machine through Redis).
///
/// A change feed says which ids may have changed; each one held here is read back
/// from the store and compared with the local countdown. Only a difference is
/// applied, through the scheduler's own operations, so a process's own changes
/// (already applied locally and to the store) are never applied twice, and
/// changes from several places add up as they did in the store.
extension StoreBinding {
    /// Applies what changed in the store to the countdowns this process holds:
    /// `on_tick` fires at once with the new remaining time after an append, pause
    /// or resume made elsewhere; a countdown removed from the store (cancelled
    /// elsewhere) ends with `on_done(t, "cancelled")`; one finished elsewhere, or
    /// with nothing left after time was taken off elsewhere, ends here, finished, once.
    public func applyChanges(_ changes: CountdownChanges) {
        guard changes != .none, let store = persistence else { return }
        if !heldSaves.isEmpty { writeHeldSaves() }
        let held: [String]
        switch changes {
        case .none: return
        case .ids(let ids): held = ids.filter { persistentKey(forID: $0.string) != nil }.sorted().map(\.string)
        case .unknown: held = allPersistentIDs.sorted { $0.precedesInBytes($1) }
        }
        // Read together (one transaction, or one round trip per slice); a hook run
        // by an earlier change may write to the store, and what was read after
        // that is read again, so that no hook's change is undone here.
        let loaded: [(id: String, record: Result<StoredCountdown?, any Error>)]
        do {
            loaded = try store.loadEach(ids: held)
        } catch {
            reportError("\(error)")
            return
        }
        let writes = writeCount
        for (id, loadedRecord) in loaded {
            // An earlier change's hooks may have ended or replaced it.
            guard let key = persistentKey(forID: id) else { continue }
            let record: StoredCountdown?
            do {
                record = try writeCount == writes ? loadedRecord.get() : store.load(id: id)
            } catch {
                // One unreadable record (another writer's) is named and skipped;
                // the others are still followed.
                reportError("\(error)")
                continue
            }
            follow(key, record, now: currentInstant())
        }
    }

    /// Brings one local countdown to its stored record.
    private func follow(_ key: CountdownKey, _ record: StoredCountdown?, now: StoreInstant) {
        guard let record else {
            scheduler.cancel(key)
            return
        }
        // Signed: past the end of an overtime countdown, the time past it is compared.
        guard let localState = scheduler.state(key), let localRemaining = scheduler.timeLeft(key),
              let localTotal = scheduler.total(key) else { return }
        // Another process replaced it under its id with another title (a
        // pomodoro's next phase, say): `h.title` reads what is stored now.
        if let id = persistentID(key), annotationsByID[id]?.title != record.title {
            setAnnotations(StoredAnnotations(title: record.title, actions: record.actions), forID: id)
        }
        let tolerance = externalChangeTolerance
        switch record.state {
        case .finished:
            scheduler.cancel(key, reason: .finished)
        case .paused:
            let left = record.pausedRemaining ?? 0
            // Time taken off elsewhere (a negative append) left nothing: the end, once.
            // An overtime countdown is never ended by time: it waits for its resume.
            if left <= 0, !record.overtime {
                scheduler.cancel(key, reason: .finished)
                return
            }
            if localState == .paused, abs(left - localRemaining) <= tolerance, abs(record.total - localTotal) <= tolerance { return }
            scheduler.adopt(key, remaining: left, total: record.total, paused: true)
        case .running:
            let left = record.timeLeft(at: now)
            if localState == .running, abs((record.overtime ? left : max(0, left)) - localRemaining) <= tolerance, abs(record.total - localTotal) <= tolerance { return }
            scheduler.adopt(key, remaining: left, total: record.total, paused: false)
        }
    }
}
