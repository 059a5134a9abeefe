import CountdownCore
import SQLiteStore

extension SharedStore {
    /// Every stored countdown, for a command that only reads them once and ends
    /// (`cdscript status`): on SQLite, a read-only glance at the file rather than
    /// the full open that writing needs (SQLiteCountdownStore+Glance.swift).
    func glanceListing() throws -> StoredCountdownListing {
        if let sqlite = self as? SQLiteSharedStore { return try sqlite.store.glance() }
        return try persistence.listing()
    }
}
