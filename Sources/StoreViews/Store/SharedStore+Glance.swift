import CountdownCore
import SQLiteStore

extension SharedStore {
    /// Every stored countdown, for a command that only reads them once and ends
    /// (`cdscript status`): on SQLite, a read-only glance at the file rather than
    /// the full open that writing needs (SQLiteCountdownStore+Glance.swift).
    public func glanceListing() throws -> StoredCountdownListing {
        if let sqlite = self as? SQLiteSharedStore { return try sqlite.store.glance() }
        return try persistence.listing()
    }

    /// The countdowns stored under `ids` and nothing else (`cdscript status ID`,
    /// which a status bar runs every second): one indexed read a countdown on
    /// SQLite, through the same read-only glance; one `HMGET` on Redis. Each
    /// id's record, nil when none is stored, or why it cannot be read.
    public func glanceEach(ids: [String]) throws -> [(id: String, record: LoadedCountdown)] {
        if let sqlite = self as? SQLiteSharedStore { return try sqlite.store.glanceEach(ids: ids) }
        return try persistence.loadEach(ids: ids).map { ($0.id, LoadedCountdown($0.record)) }
    }
}

/// The record a store could not read, from the error it gave for it (each store
/// says so in its own type); nil for any other failure.
public func unreadableRecord(in error: any Error) -> UnreadableCountdown? {
    if let record = error as? UnreadableCountdown { return record }
    return (error as? StoreError)?.unreadable
}
