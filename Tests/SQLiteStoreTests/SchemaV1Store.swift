import CountdownCore
import SQLiteStore
import Foundation
import GRDB

/// A store file as the first schema (v1) wrote it, holding `records`: what a
/// newer build meets when it opens a store an older one left.
func writeSchemaV1Store(in dir: String, holding records: [StoredCountdown]) throws {
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let queue = try DatabaseQueue(path: StateDirectory.storePath(in: dir))
    try queue.write { db in
        try db.execute(sql: """
            CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
            INSERT INTO grdb_migrations VALUES ('v1');
            CREATE TABLE countdown (
                id TEXT PRIMARY KEY NOT NULL,
                state TEXT NOT NULL CHECK (state IN ('running', 'paused', 'finished')),
                kind TEXT NOT NULL CHECK (kind IN ('duration', 'wall')),
                wall_deadline INTEGER NOT NULL, paused_remaining INTEGER,
                every INTEGER NOT NULL CHECK (every > 0), total INTEGER NOT NULL,
                boot_id TEXT, boot_deadline INTEGER, updated_at INTEGER NOT NULL);
            PRAGMA user_version = 1;
            """)
        for old in records {
            try db.execute(sql: "INSERT INTO countdown VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", arguments: [
                old.id, old.state.rawValue, old.kind.rawValue, old.wallDeadline, old.pausedRemaining, old.every,
                old.total, old.bootID, old.bootDeadline, old.updatedAt])
        }
    }
    try queue.close()
}
