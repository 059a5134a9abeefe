import CountdownCore
import GRDB

/// The store's tables, one migration per schema version. A migration is never
/// changed once released; a new version adds one. `PRAGMA user_version` mirrors
/// the version for tools that do not know GRDB's migration table.
enum StoreSchema {
    /// The newest schema this build knows.
    static let version = 1

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE countdown (
                    id TEXT PRIMARY KEY NOT NULL,
                    state TEXT NOT NULL CHECK (state IN ('running', 'paused', 'finished')),
                    kind TEXT NOT NULL CHECK (kind IN ('duration', 'wall')),
                    wall_deadline INTEGER NOT NULL,
                    paused_remaining INTEGER,
                    every INTEGER NOT NULL CHECK (every > 0),
                    total INTEGER NOT NULL,
                    boot_id TEXT,
                    boot_deadline INTEGER,
                    updated_at INTEGER NOT NULL
                );
                PRAGMA user_version = 1;
                """)
        }
        return migrator
    }
}

extension StoredCountdown {
    init(row: Row, path: String) throws(StoreError) {
        let stateText: String = row["state"]
        let kindText: String = row["kind"]
        guard let state = State(rawValue: stateText), let kind = Kind(rawValue: kindText) else {
            throw StoreError(.corrupt, path: path, reason: "a countdown has state '\(stateText)' and kind '\(kindText)'")
        }
        self.init(
            id: row["id"], state: state, kind: kind,
            wallDeadline: row["wall_deadline"], pausedRemaining: row["paused_remaining"],
            every: row["every"], total: row["total"],
            bootID: row["boot_id"], bootDeadline: row["boot_deadline"], updatedAt: row["updated_at"])
    }

    var arguments: StatementArguments {
        [id, state.rawValue, kind.rawValue, wallDeadline, pausedRemaining, every, total, bootID, bootDeadline, updatedAt]
    }
}
