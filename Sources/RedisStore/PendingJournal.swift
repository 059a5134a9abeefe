#if canImport(Glibc)
import Glibc
#endif
import CountdownCore
import CSQLite
import FoundationEssentials
import SQLiteAccess

/// The changes queued for a Redis server that is out of reach, kept on local disk
/// (an SQLite file beside the SQLite store, `redis-pending.sqlite` in the state
/// folder) until the server has them. Memory holds the same queue
/// (`PendingChanges`); this file is what outlives the process: a run killed, or
/// ended by a signal while the server hung, leaves its changes here, and the next
/// cdscript command that reaches the server sends them first.
///
/// Each row belongs to one process (its `owner`: boot id, pid and start time).
/// A process sends only its own rows while it lives; rows whose owner is gone are
/// adopted by the next process that connects to the same server, in one
/// transaction, so two processes never send the same row.
///
/// A row gets the sequence number it is sent under (and its writer) before it is
/// sent, written here first: a process killed after the server applied it, before
/// the row left the file, leaves it to be sent again under that number, which the
/// server then knows (applied once, not twice).
///
/// Written through on every change of the queue, with `synchronous = OFF`: a
/// committed row is in the operating system's cache at once, so it survives the
/// process being killed in any way; only a crash of the machine itself can lose
/// the last changes.
public final class PendingJournal {
    /// The file's name inside the state folder.
    public static let fileName = "redis-pending.sqlite"

    public let path: String
    var connection: SQLiteConnection?
    /// The file opened (device and inode), so that one found unreadable is the
    /// one set aside, never a new journal another process started meanwhile.
    var openedFile: (device: UInt64, inode: UInt64)?
    /// True while a `batch` is open: its writes join one transaction.
    private var inBatch = false

    /// The journal in `directory` (the state folder); nothing is created until a
    /// change is queued.
    public init(directory: String) {
        path = (directory.hasSuffix("/") ? directory : directory + "/") + Self.fileName
    }

    /// True when the file exists (so reading it cannot create it).
    var exists: Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    private func database() throws -> SQLiteConnection {
        if let connection { return connection }
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        // State is private to its user (XDG), as the SQLite store makes it.
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        try createPrivately()
        try checkHeader()
        do {
            let made = try SQLiteConnection(path: path, busyTimeout: 5, setUp: "PRAGMA journal_mode = WAL; PRAGMA synchronous = OFF")
            try prepare(made)
            connection = made
            return made
        } catch let error as SQLiteError where Self.isDamage(error) {
            throw JournalUnreadable(reason: error.message)
        }
    }

    /// The table, made when missing, and a check of the whole file: a journal
    /// that cannot be read is found here, before any row is taken from it or
    /// added to it (`PendingJournal+Unreadable`).
    private func prepare(_ made: SQLiteConnection) throws {
        try checkWhole(made)
        try made.transaction(.immediate) {
            try made.execute("""
                CREATE TABLE IF NOT EXISTS pending (
                    row INTEGER PRIMARY KEY AUTOINCREMENT,
                    server TEXT NOT NULL,
                    owner TEXT NOT NULL,
                    writer TEXT NOT NULL,
                    sequence INTEGER,
                    id BLOB NOT NULL,
                    before TEXT,
                    after TEXT,
                    instant INTEGER NOT NULL,
                    unconditional INTEGER NOT NULL,
                    restore INTEGER NOT NULL,
                    count INTEGER NOT NULL
                );
                CREATE INDEX IF NOT EXISTS pending_by_server ON pending (server, owner);
                """)
        }
    }

    /// Runs `body` with every write to the journal in one transaction: many changes
    /// queued at once (the held starts of one callback) are written in milliseconds,
    /// not at one commit apiece (about 0.1 ms each), so a signal's grace period is
    /// not spent on them. What `body` wrote is committed even when it throws: the
    /// queue in memory keeps those entries, and the file must hold them too.
    func batch(_ body: () throws -> Void) throws {
        if inBatch { return try body() }
        var failure: Error?
        let db = try database()
        try db.transaction(.deferred) {
            inBatch = true
            defer { inBatch = false }
            do { try body() } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// One write: inside the open batch's transaction, else committed on its own.
    private func write<T>(_ work: (SQLiteConnection) throws -> T) throws -> T {
        try work(try database())
    }

    /// Keeps a new entry; returns its row.
    func insert(_ change: PendingChange, server: String, owner: String, writer: String) throws -> Int64 {
        // One statement, committed on its own (no BEGIN/COMMIT around it) unless a
        // batch is open, from a statement compiled once: the queue's cost per change
        // stays small.
        try write { db in
            try db.execute("""
                INSERT INTO pending (server, owner, writer, sequence, id, before, after, instant, unconditional, restore, count)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, [.text(server), .text(owner), .text(change.writer ?? writer), SQLiteValue(change.sequence), .blob(Array(change.id.utf8)),
                      SQLiteValue(change.before.map(RedisRecord.encode)), SQLiteValue(change.after.map(RedisRecord.encode)),
                      .integer(change.instant), SQLiteValue(change.unconditional), SQLiteValue(change.restore), SQLiteValue(change.count)])
            return db.lastInsertedRowID
        }
    }

    /// An entry that later changes were merged into.
    func update(_ change: PendingChange) throws {
        guard let row = change.journalRow else { return }
        try write { db in
            try db.execute("UPDATE pending SET after = ?, unconditional = ?, count = ? WHERE row = ?",
                           [SQLiteValue(change.after.map(RedisRecord.encode)), SQLiteValue(change.unconditional), SQLiteValue(change.count), .integer(row)])
        }
    }

    /// The sequence numbers (and their writer) entries are about to be sent
    /// under, in one transaction: recorded before they are sent, so that a
    /// process killed after the server applied one, before its row was deleted,
    /// leaves it to be sent again under the same number, and applied once.
    func recordNumbers(_ changes: [PendingChange]) throws {
        guard changes.contains(where: { $0.journalRow != nil }) else { return }
        try batch {
            for change in changes {
                guard let row = change.journalRow, let sequence = change.sequence, let writer = change.writer else { continue }
                try write { db in
                    try db.execute("UPDATE pending SET sequence = ?, writer = ? WHERE row = ?", [SQLiteValue(sequence), .text(writer), .integer(row)])
                }
            }
        }
    }

    /// An entry the server now has (or that was given up, aloud).
    func delete(row: Int64) throws {
        try write { db in
            try db.execute("DELETE FROM pending WHERE row = ?", [.integer(row)])
        }
    }

    /// Every entry of `owner` for `server`.
    func deleteAll(server: String, owner: String) throws {
        guard exists else { return }
        let db = try database()
        try db.transaction(.immediate) {
            try db.execute("DELETE FROM pending WHERE server = ? AND owner = ?", [.text(server), .text(owner)])
        }
    }

    /// Takes over the entries for `server` whose owner is no longer running
    /// (`isRunning`), oldest first. Done in one transaction: of two processes
    /// adopting at once, each row goes to one.
    func adoptOrphans(server: String, owner: String, isRunning: (String) -> Bool) throws -> [PendingChange] {
        guard exists else { return [] }
        let db = try database()
        return try db.transaction(.immediate) {
            let owners = try db.texts("SELECT DISTINCT owner FROM pending WHERE server = ? AND owner <> ?", [.text(server), .text(owner)])
            let gone = owners.filter { !isRunning($0) }
            guard !gone.isEmpty else { return [] }
            var rows: [SQLiteRow] = []
            for dead in gone {
                rows += try db.cached("SELECT * FROM pending WHERE server = ? AND owner = ?").allRows([.text(server), .text(dead)])
                try db.execute("UPDATE pending SET owner = ? WHERE server = ? AND owner = ?", [.text(owner), .text(server), .text(dead)])
            }
            rows.sort { ($0["row"].integer ?? 0) < ($1["row"].integer ?? 0) }
            return rows.compactMap(Self.change(from:))
        }
    }

    /// An entry read back; nil for a row that does not hold one (an id that is not UTF-8, a field of the wrong type).
    private static func change(from row: SQLiteRow) -> PendingChange? {
        guard case .blob(let idBytes) = row["id"], let id = String(validating: idBytes, as: UTF8.self),
              let instant = row["instant"].integer, let unconditional = row["unconditional"].integer,
              let restore = row["restore"].integer, let count = row["count"].integer, let journalRow = row["row"].integer
        else { return nil }
        let before = row["before"].text, after = row["after"].text
        var change = PendingChange(id: id, before: before.flatMap { RedisRecord.decode(id: id, $0) },
                                   after: after.flatMap { RedisRecord.decode(id: id, $0) },
                                   instant: instant, unconditional: unconditional != 0,
                                   sequence: row["sequence"].integer.map(Int.init), restore: restore != 0)
        change.count = Int(count)
        change.journalRow = journalRow
        change.writer = row["writer"].text
        change.adopted = true
        return change
    }
}

struct JournalError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
