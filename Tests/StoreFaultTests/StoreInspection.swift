import Foundation
import GRDB

/// Reads a store the way a fresh process would, after whatever happened to its writer.
enum StoreInspection {
    struct Row: Equatable, CustomStringConvertible {
        let state: String
        let total: Int64
        var description: String { "\(state) \(total / 1_000_000_000)s" }
    }

    /// `PRAGMA integrity_check` and every countdown, by id.
    static func read(_ path: String) throws -> (integrity: [String], rows: [String: Row]) {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db throws in
            let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check")
            let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
            guard tables.contains("countdown") else { return (integrity, [:]) }
            var rows: [String: Row] = [:]
            for row in try GRDB.Row.fetchAll(db, sql: "SELECT id, state, total FROM countdown") {
                rows[row["id"]] = Row(state: row["state"], total: row["total"])
            }
            return (integrity, rows)
        }
    }

    static func sha(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }
}
