import CountdownCore

/// One change (or several, merged) that has not reached the server yet.
struct PendingChange {
    let id: String
    /// What the first merged change was computed from (server terms).
    var before: StoredCountdown?
    /// What the last merged change made of it.
    var after: StoredCountdown?
    /// When the first merged change was made, on the server's clock.
    var instant: Nanoseconds
    /// A save or delete: replayed as it is, whatever the server holds.
    var unconditional: Bool
    /// The sequence number it is (or was) sent under: set for a change sent live
    /// whose reply was lost, and given to every other change before a replay
    /// sends it (`PendingChanges.number`), on disk first. Sent again under the
    /// same number, which the server has recorded if it applied it, it is applied
    /// at most once. Never merged with others.
    var sequence: Int?
    /// A countdown written back after the server lost its data: created only
    /// where the server has none (another process may have written it back).
    var restore = false
    /// How many changes this entry stands for.
    var count = 1
    /// Whether its memory was counted against the limit (and is given back).
    var charged = false
    /// Its row in the journal on disk (`PendingJournal`), when it is kept there.
    var journalRow: Int64?
    /// The writer whose sequence number `sequence` is; nil: this process's.
    var writer: String?
    /// Taken over from a process that ended before sending it (for the notice).
    var adopted = false
}

/// The changes waiting for the server, oldest first, with the changes to one
/// countdown merged into one entry (two appends are one sum: the entry keeps the
/// first `before` and the last `after`). Its size is bounded by the number of
/// countdowns changed, not by the number of changes: an outage during which a
/// countdown is appended to every 0.1 s leaves one entry.
///
/// A slot array drained from a head index: taking the first entry is O(1)
/// (`Array.removeFirst` made replaying 200,000 changes quadratic).
struct PendingChanges {
    private var slots: [PendingChange?] = []
    private var head = 0
    /// The slot of each countdown's entry that later changes are merged into.
    private var mergeable: [CountdownID: Int] = [:]
    /// Changes waiting, counting merged ones.
    private(set) var changeCount = 0

    /// About what one entry takes: the slot, two records, the id twice (entry
    /// and merge index) and the index's bucket.
    static func entryBytes(_ change: PendingChange) -> Int {
        MemoryLayout<PendingChange?>.stride + 2 * MemoryLayout<StoredCountdown>.stride + 2 * change.id.utf8.count + 64
    }

    /// True when `change` would be merged into an entry (and take no more memory).
    func merges(_ change: PendingChange) -> Bool {
        change.sequence == nil && !change.restore && mergeable[CountdownID(change.id)] != nil
    }

    var isEmpty: Bool { head == slots.count }
    /// The entries waiting, oldest first.
    var waiting: [PendingChange] { slots[head...].compactMap { $0 } }
    /// Entries waiting (countdowns with changes, give or take a change whose reply was lost).
    var entryCount: Int { slots.count - head }
    var first: PendingChange? { isEmpty ? nil : slots[head] }

    /// Queues `change`; returns the entry that holds it now: `change` itself, or
    /// the earlier entry it was merged into.
    @discardableResult
    mutating func append(_ change: PendingChange) -> PendingChange {
        let key = CountdownID(change.id)
        changeCount += change.count
        if change.sequence == nil, !change.restore, let slot = mergeable[key], var entry = slots[slot] {
            entry.after = change.after
            entry.unconditional = entry.unconditional || change.unconditional
            entry.count += change.count
            slots[slot] = entry
            return entry
        }
        slots.append(change)
        // A change whose reply was lost, or a write-back, stays apart: the next
        // change to that countdown opens an entry of its own.
        mergeable[key] = change.sequence == nil && !change.restore ? slots.count - 1 : nil
        return change
    }

    /// Gives the first `limit` entries that have none a sequence number from
    /// `next` (in queue order, so the numbers grow as they are sent) and `writer`
    /// (the numbers' writer);
    /// returns each one numbered, for the journal. A numbered entry takes no
    /// later change: once it may be on the server, a change merged into it would
    /// be lost with it.
    mutating func number(upTo limit: Int, writer: String?, next: () -> Int) -> [PendingChange] {
        var numbered: [PendingChange] = []
        var index = head
        while index < slots.count, index - head < limit {
            if var entry = slots[index], entry.sequence == nil {
                entry.sequence = next()
                entry.writer = writer
                slots[index] = entry
                let key = CountdownID(entry.id)
                if mergeable[key] == index { mergeable[key] = nil }
                numbered.append(entry)
            }
            index += 1
        }
        return numbered
    }

    mutating func removeFirst() {
        guard let entry = slots[head] else { return }
        let key = CountdownID(entry.id)
        if mergeable[key] == head { mergeable[key] = nil }
        slots[head] = nil
        head += 1
        changeCount -= entry.count
        if head == slots.count {
            slots.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 1024, head * 2 >= slots.count {
            // Amortized: each slot moves at most once per halving.
            slots.removeFirst(head)
            let removed = head
            mergeable = mergeable.mapValues { $0 - removed }
            head = 0
        }
    }

    mutating func removeAll() {
        slots.removeAll()
        head = 0
        mergeable.removeAll()
        changeCount = 0
    }
}
