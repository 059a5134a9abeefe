/// What one change asked of a stored countdown came to: the decisions that
/// `cdscript append`, `pause` and `resume` and the HTTP API of `serve` share, so
/// that both say the same thing for the same record.
public enum StoredChangeOutcome: Equatable, Sendable {
    /// The record changed; write it back.
    case changed
    /// Nothing to do; says why ("already paused").
    case unchanged(String)
    /// It has finished: nothing to change.
    case ended
    /// Beyond `CountdownRange`: nothing changed; says why, naming the bound.
    case refused(String)
}

extension StoredCountdown {
    /// `append`: moves the end by `amount` (`shown`: the amount as given, for the message).
    public mutating func appendChange(_ amount: Nanoseconds, shown: String, at now: StoreInstant) -> StoredChangeOutcome {
        // Refused before anything is written: every stored value must read back.
        if let why = appendRefusal(amount, at: now) {
            return .refused("cannot add \(shown): \(why)")
        }
        return append(amount, at: now) ? .changed : .ended
    }

    /// `pause`.
    public mutating func pauseChange(at now: StoreInstant) -> StoredChangeOutcome {
        switch effectiveState(at: now) {
        case .finished: return .ended
        case .paused: return .unchanged("already paused")
        case .running: return pause(at: now) ? .changed : .ended
        }
    }

    /// `resume`.
    public mutating func resumeChange(at now: StoreInstant) -> StoredChangeOutcome {
        switch effectiveState(at: now) {
        case .finished: return .ended
        case .running: return .unchanged("already running")
        case .paused: return resume(at: now) ? .changed : .ended
        }
    }
}

extension CountdownStoreBackend {
    /// Applies `change` to the countdown stored under `id` in one `modify`, writing
    /// the record back only when the outcome is `.changed`. Returns the outcome (nil:
    /// no such id) and the record as stored afterwards: what `append`, `pause` and
    /// `resume` and the HTTP API of `serve` report.
    public func applyChange(id: String, at now: StoreInstant,
                            _ change: (inout StoredCountdown, StoreInstant) -> StoredChangeOutcome) throws -> (outcome: StoredChangeOutcome?, after: StoredCountdown?) {
        var outcome: StoredChangeOutcome?
        var after: StoredCountdown?
        try modify(id: id) { record in
            guard var r = record else { return }
            outcome = change(&r, now)
            if case .changed = outcome { record = r }
            after = record
        }
        return (outcome, after)
    }
}
