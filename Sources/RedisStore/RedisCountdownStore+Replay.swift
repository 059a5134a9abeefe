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
        while let change = pending.first, connection != nil {
            do {
                try replay(change)
                if change.writer != nil {
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

    /// Sends one queued change, computed again on what the server holds after each
    /// conflict; throws after `attemptsPerChange` of them, as `modify` does.
    func replay(_ change: PendingChange) throws {
        guard let connection else { throw RedisError(connectionLost: true, message: "\(url): not connected") }
        // A change whose reply was lost is sent under its own sequence number first.
        var sequence = change.sequence
        // First guess: the server holds what the change was computed from (one
        // round trip per change); a conflict returns what it holds instead.
        var current = change.before
        var known = false
        var attempts = 0
        while true {
            if change.restore, known, current != nil {
                // Written back (or started again) by another process meanwhile.
                cache[CountdownID(change.id)] = current
                return
            }
            // Given up, not dropped in silence: replayPending tells the user.
            guard attempts < attemptsPerChange else { throw gaveUp(changing: change.id) }
            attempts += 1
            let target = change.unconditional || current == change.before ? change.after
                : RedisRecord.rebase(before: change.before, after: change.after, onto: current, at: change.instant)
            // A lost reply is sent again under the number, and writer, it was sent with.
            let writer = sequence != nil ? change.writer ?? writerKey : writerKey
            let keysAndArgs = ["2", Self.hashKey, writer, change.id, current.map(RedisRecord.encode) ?? "",
                               target.map(RedisRecord.encode) ?? "", channel, change.unconditional ? "any" : "compare",
                               String(sequence ?? nextSequence())]
            sequence = nil
            switch try evaluate(keysAndArgs, connection: connection, id: change.id) {
            case .written:
                cache[CountdownID(change.id)] = target
                return
            case .alreadyApplied(_, let stored):
                cache[CountdownID(change.id)] = stored
                return
            case .conflict(let stored):
                current = stored
                known = true
            }
        }
    }
}
