import CountdownCore

extension StoredCountdown {
    /// Takes `size` off the stored record, never more than it has left there
    /// (another process may have taken some off already): its length keeps what
    /// elapsed and stays a valid length for the store. A record left with nothing
    /// ends, finished, here and now (`finish(at:)` takes only a running record
    /// at its end, not a paused one).
    mutating func takeOffAtMostWhatIsLeft(_ size: Nanoseconds, at now: StoreInstant) {
        guard effectiveState(at: now) != .finished else { return }
        append(-min(size, remaining(at: now)), at: now)
        guard remaining(at: now) <= 0 else { return }
        state = .finished
        pausedRemaining = nil
        updatedAt = now.wall
    }
}
