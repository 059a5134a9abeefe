import CountdownCore

/// Once the server is back: the queued changes are sent again, oldest first, in
/// slices between passes of the run loop.
extension RedisCountdownStore {
    /// Tries once to connect again. The queued changes are sent by `replayPending`.
    /// Returns true when connected.
    public func reconnect(withinMilliseconds limit: Int? = nil) -> Bool {
        guard connection == nil else { return true }
        replayedSinceReconnect = 0
        do {
            try live(timeout: min(reconnectTimeoutMilliseconds, max(1, limit ?? reconnectTimeoutMilliseconds)))
        } catch {
            return false
        }
        return true
    }

    /// Sends queued changes, oldest first, for about `milliseconds` (a run loop
    /// calls it between passes, so ticks, redraws and keys go on during a long
    /// replay). Returns true when connected with nothing left queued.
    public func replayPending(forMilliseconds milliseconds: Int) -> Bool {
        let start = BootClock().bootNow()
        let budget = Nanoseconds(milliseconds) * 1_000_000
        while pending.first != nil, connection != nil {
            numberBeforeSending()
            guard let change = pending.first else { break }
            do {
                try replay(change)
                replayStepDone()
                if change.adopted {
                    adoptedSent += change.count
                } else {
                    replayedSinceReconnect += change.count
                }
            } catch let error as RedisError where error.connectionLost {
                wentOffline(error)
                return false
            } catch {
                notice("cdscript: could not apply a change to '\(change.id)' made while \(url) was out of reach: \(error)")
            }
            dropFirstPending()
            replayStepDone()
            if BootClock().bootNow() - start >= budget { break }
        }
        guard connection != nil, pending.isEmpty else { return false }
        if adoptedSent > 0 {
            notice("cdscript: sent \(adoptedSent) change\(adoptedSent == 1 ? "" : "s") an earlier run kept in \(pendingLocation) while \(url) was out of reach")
            adoptedSent = 0
        }
        if replayedSinceReconnect > 0 {
            notice("cdscript: \(url) is back; \(replayedSinceReconnect) change\(replayedSinceReconnect == 1 ? "" : "s") made meanwhile applied")
            replayedSinceReconnect = 0
        }
        return true
    }

    /// At the end of a run: connects if needed and sends what is queued for at
    /// most `milliseconds`. Returns true when nothing is left unsent.
    public func flush(withinMilliseconds milliseconds: Int) -> Bool {
        guard !pending.isEmpty else { return true }
        guard reconnect(withinMilliseconds: milliseconds) else { return false }
        return replayPending(forMilliseconds: milliseconds)
    }

    /// Entries numbered at once, in one journal transaction: a row's number is
    /// on disk before it is sent, at a fraction of a commit each.
    static let numberedAhead = 256

    /// Before the first queued change is sent: it, and the next ones that have
    /// none, get their sequence numbers, on disk first (`PendingJournal.recordNumbers`).
    /// A process killed once the server applied a change, before its row left the
    /// journal, leaves it under that number: the next process sends it again
    /// under the same number and the server applies it once. (Sent under a new
    /// number, a merged row of appends was applied twice.)
    func numberBeforeSending() {
        guard let first = pending.first, first.sequence == nil else { return }
        let numbered = pending.number(upTo: Self.numberedAhead, writer: writerKey) { nextSequence() }
        keepOnDisk { try $0.recordNumbers(numbered) }
        replayStepDone()
    }

    /// Sends one queued change under its sequence number, computed again on what
    /// the server holds after each conflict; throws after `attemptsPerChange` of
    /// them, as `modify` does.
    func replay(_ change: PendingChange) throws {
        guard let connection else { throw RedisError(connectionLost: true, message: "\(url): not connected") }
        // Every attempt goes under the change's own number and writer: a conflict
        // applies nothing and leaves the number unused, and the row on disk names
        // only this one, so a process killed after any attempt leaves the change
        // to be sent again under the number the server knows.
        let sequence = change.sequence ?? nextSequence()
        let writer = change.writer ?? writerKey
        // First guess: the server holds what the change was computed from (one
        // round trip per change); a conflict returns what it holds instead.
        var current = change.before
        var known = false
        var attempts = 0
        while true {
            if change.restore, known, current != nil {
                // Written back (or started again) by another process meanwhile.
                remember(change.id, current)
                return
            }
            // Given up, not dropped in silence: replayPending tells the user.
            guard attempts < attemptsPerChange else { throw gaveUp(changing: change.id) }
            attempts += 1
            let target = change.unconditional || current == change.before ? change.after
                : RedisRecord.rebase(before: change.before, after: change.after, onto: current, at: change.instant)
            let keysAndArgs = ["2", Self.hashKey, writer, change.id, current.map(RedisRecord.encode) ?? "",
                               target.map(RedisRecord.encode) ?? "", channel, change.unconditional ? "any" : "compare",
                               String(sequence)]
            switch try evaluate(keysAndArgs, connection: connection, id: change.id) {
            case .written:
                remember(change.id, target)
                // Its row leaves the journal only once the replicas asked for
                // have it: a primary lost meanwhile leaves it to be sent again.
                try confirmOnReplicas(connection, subject: Self.subject(change.id))
                return
            case .alreadyApplied(_, let stored):
                remember(change.id, stored)
                try confirmOnReplicas(connection, subject: Self.subject(change.id))
                return
            case .conflict(let stored):
                current = stored
                known = true
            }
        }
    }
}
