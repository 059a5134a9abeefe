import CountdownCore

extension SharedStore {
    /// Removes the countdowns that have finished by `now` and the records that
    /// cannot be read as countdowns; returns what was removed (`cdscript clear`).
    /// Each store does it its own way (`CountdownStoreBackend.clear(at:)`).
    public func clear(at now: StoreInstant) throws -> (finished: [String], unreadable: [UnreadableCountdown]) {
        try persistence.clear(at: now)
    }
}
