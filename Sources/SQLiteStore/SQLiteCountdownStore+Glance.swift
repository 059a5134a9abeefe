import CountdownCore
import SQLiteAccess

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
              let listing = try? glanceReadOnly({ db in try self.readAll(db) }) else {
            return try listing()
        }
        return listing
    }

    /// The countdowns stored under `ids`, as `loadEach(ids:)` reads them, the
    /// cheapest way (see above): one indexed read of one row per id, in one read
    /// transaction, so `cdscript status ID` costs the same whatever else is stored.
    public func glanceEach(ids: [String]) throws -> [(id: String, record: LoadedCountdown)] {
        guard !hasOpened, fileExists, !isUnopenedEmptyFile,
              let loaded = try? glanceReadOnly({ db in
                  ids.map { id -> (id: String, record: LoadedCountdown) in
                      // No row can have such an id (`checkID`): none is stored.
                      guard !id.utf8.contains(0) else { return (id, .success(nil)) }
                      do {
                          return (id, .success(try self.readRow(id: id, db)))
                      } catch {
                          return (id, .failure(error))
                      }
                  }
              }) else {
            return try loadEach(ids: ids).map { ($0.id, LoadedCountdown($0.record)) }
        }
        return loaded
    }

    /// What `read` gives, in one read transaction on a read-only connection; nil
    /// when the store is not one this build reads as it is (the full open decides).
    private func glanceReadOnly<Read>(_ read: (SQLiteConnection) throws -> Read) throws -> Read? {
        let db = try readOnlyConnection()
        defer {
            glanceCounter.statements += db.statementsRun
            db.close()
        }
        return try db.transaction { () throws -> Read? in
            // The version this build writes, and exactly the migrations it knows (a newer
            // build's migration without a version number is refused by the full open).
            guard try db.value("PRAGMA user_version")?.integer == Int64(StoreSchema.version),
                  try db.texts("SELECT identifier FROM grdb_migrations").sorted() == StoreSchema.migrator.identifiers.sorted()
            else { return nil }
            return try read(db)
        }
    }
}

/// What glances cost: the SQL statements they ran (the connection's own set-up included),
/// which tests bound (`status` must stay a handful of statements at any N).
public final class GlanceCounter: @unchecked Sendable {
    public internal(set) var statements = 0
    init() {}
}
