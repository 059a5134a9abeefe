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

extension LuaHost {
    /// Before a take-off that ends the countdown here: the stored copy loses the
    /// same time and, left with nothing, is finished, so that every process that
    /// follows it ends it too. Unlike `storeChange`, a record that is gone or
    /// finished in the store stays so: an ending is no reason to store it again.
    func storeTakeOffThatEnds(_ key: CountdownKey, size: Nanoseconds) {
        guard let id = persistentID(key) else { return }
        let now = storeNow()
        withStore { store in
            try store.modify(id: id) { record in record?.takeOffAtMostWhatIsLeft(size, at: now) }
        }
    }
}
