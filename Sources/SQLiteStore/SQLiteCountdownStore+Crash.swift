import CountdownCore
import SQLiteAccess

/// The check after a crash: SQLite's WAL recovery leaves the last committed state
/// after a `kill -9` or a power loss, but a crash can, rarely, leave damage it
/// does not catch (a disk that lied about a sync, a bug). So a process that died
/// with the store open for writing is noticed by the next open, which checks the
/// whole file once; an open after processes that all ended normally checks nothing.
extension SQLiteCountdownStore {
    /// Registers this process among the store's writers before its first write;
    /// later calls do nothing, so every write may call it.
    func registerAsWriter() {
        guard !isRegisteredWriter else { return }
        isRegisteredWriter = true
        writers.register()
    }

    /// At opening, before the store's own connection: when a process that had the
    /// store open for writing did not end normally, `PRAGMA quick_check` once,
    /// through a read-only connection (closing a read-write one would fold the
    /// WAL into the file, and a damaged file must be left byte for byte). A
    /// damaged file is refused (named; the stale registration kept, so that every
    /// later open refuses it too); a whole one is used, silently, and the stale
    /// registrations go.
    func checkAfterCrash() throws(StoreError) {
        let stale = writers.stale()
        guard !stale.isEmpty, let claim = writers.claim(stale) else { return }
        integrityChecks += 1
        do {
            let db = try readOnlyConnection()
            defer { db.close() }
            try db.transaction { try Self.quickCheck(db, path: path) }
        } catch {
            // The stale registration stays: every later open checks (and refuses) again.
            claim.damaged()
            let failure = classify(error)
            guard failure.kind == .corrupt else { throw failure }
            throw StoreError(.corrupt, path: path, reason: "found after cdscript process \(claim.pid) ended without closing it: \(failure.reason)")
        }
        claim.checked()
    }

    /// A connection that SQLite opens read-only: it can neither write the file nor
    /// fold the WAL into it when it closes.
    func readOnlyConnection() throws -> SQLiteConnection {
        try refuseUnlessRegularFile()
        return try SQLiteConnection(path: path, readOnly: true, busyTimeout: busyTimeout)
    }
}
