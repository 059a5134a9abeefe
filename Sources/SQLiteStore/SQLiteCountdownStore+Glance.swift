import CountdownCore
import GRDB

/// The cheapest whole read of the store, for a one-shot read-only command that a
/// status bar runs every second (`cdscript status`, issue 39).
///
/// Opening the store as every other command does (`open()`) inspects the file,
/// switches it to WAL, checks the migrations in a write transaction and, when the
/// last connection closes, checkpoints the WAL and deletes it, which the next
/// call then creates again. None of that is needed to read a store this cdscript
/// wrote: a glance opens a read-only connection and reads `PRAGMA user_version`,
/// the migrations' names and the countdowns, in one read transaction. A read-only connection writes
/// nothing, so it cannot damage a file it does not understand; and it does not
/// checkpoint when it closes.
///
/// Anything out of the ordinary (a schema older than this build's, which the full
/// open migrates; a newer one; a file that is not a store; damage; contention)
/// falls back to `listing()`, which opens the store fully and reports problems as
/// every command does: the outcome is the same, only the ordinary case is cheaper.
extension SQLiteCountdownStore {
    /// Every stored countdown, as `listing()` reads them, the cheapest way (see above).
    public func glance() throws -> StoredCountdownListing {
        // Open already (this process writes too), missing or empty: `listing()` knows best.
        guard !hasOpened, fileExists, !isUnopenedEmptyFile,
              let listing = try? glanceReadOnly() else {
            return try listing()
        }
        return listing
    }

    /// Nil when the store is not one this build reads as it is (the full open decides).
    private func glanceReadOnly() throws -> StoredCountdownListing? {
        let counter = glanceCounter
        let queue = try readOnlyQueue(label: "cdscript.store.glance") { config in
            config.prepareDatabase { db in
                db.trace(options: .statement) { _ in counter.statements += 1 }
            }
        }
        defer { try? queue.close() }
        return try queue.read { db -> StoredCountdownListing? in
            // The version this build writes, and exactly the migrations it knows (a newer
            // build's migration without a version number is refused by the full open).
            guard try Int.fetchOne(db, sql: "PRAGMA user_version") == StoreSchema.version,
                  try String.fetchSet(db, sql: "SELECT identifier FROM grdb_migrations") == Set(StoreSchema.migrator.migrations)
            else { return nil }
            return try readAll(db)
        }
    }
}

/// What glances cost: the SQL statements they ran (GRDB's own set-up included),
/// which tests bound (`status` must stay a handful of statements at any N).
public final class GlanceCounter: @unchecked Sendable {
    public internal(set) var statements = 0
    init() {}
}
