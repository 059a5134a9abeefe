#if canImport(Glibc)
import Glibc
#endif
import CountdownCore
import CSQLite
import FoundationEssentials
import SQLiteAccess

/// A journal that cannot be read (not an SQLite file, truncated, damaged) still
/// holds changes no server has: it is never deleted, nor written over. It is
/// renamed aside, with its `-wal` and `-shm`, under a name that says why and
/// when (`redis-pending.sqlite.unreadable-20261129T031502.123Z-4242`), the changes
/// it may hold are counted as far as it can be read, and a new journal starts
/// at the usual name. The command that found it says so and exits 6.
struct JournalUnreadable: Error, CustomStringConvertible {
    let reason: String
    var description: String { reason }
}

/// What a journal set aside may hold, as far as it could be read.
enum JournalContents: Sendable, Equatable, CustomStringConvertible {
    /// Every row was read: this many changes.
    case exactly(Int)
    /// Rows were read up to the damage: at least this many changes.
    case atLeast(Int)
    /// No row could be read.
    case unknown

    var description: String {
        switch self {
        case .exactly(let n): "\(n) change\(n == 1 ? "" : "s")"
        case .atLeast(let n): "at least \(n) change\(n == 1 ? "" : "s") (the rest cannot be read)"
        case .unknown: "an unknown number of changes"
        }
    }
}

extension PendingJournal {
    /// SQLite's answers for a file that is not a database, or a damaged one.
    static func isDamage(_ error: SQLiteError) -> Bool {
        error.primaryCode == SQLITE_CORRUPT || error.primaryCode == SQLITE_NOTADB
    }

    /// True for an error that means the file cannot be read (as opposed to one
    /// that cannot be written: a read-only folder, a full disk), found as it was
    /// opened. Only then is it set aside: this process has no row in it, so no
    /// entry of its queue names a row of the file (a row number it deleted or
    /// updated later could be another row's in the new journal). Damage found
    /// after a good open leaves the queue in memory, said, as any failure to write
    /// does, and the next process to open the file sets it aside.
    static func isUnreadable(_ error: any Error) -> Bool {
        error is JournalUnreadable
    }

    /// Creates the file with mode 0600, unless it exists (SQLite gives the `-wal`
    /// and `-shm` it makes the mode of the database file); never through a
    /// symlink placed at its name.
    func createPrivately() throws {
        var info = stat()
        if lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK {
            throw JournalError("\(path) is a symbolic link; changes are not written through it")
        }
        let fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if fd >= 0 {
            close(fd)
        } else if errno != EEXIST {
            throw JournalError("cannot create \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// SQLite takes a file too short for its header for an empty database, and
    /// would write a new one over it: a file with bytes but without the header
    /// is refused before SQLite opens it. (An empty file is one being created.)
    func checkHeader() throws {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { throw JournalError("cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) == 0 { openedFile = (UInt64(info.st_dev), UInt64(info.st_ino)) }
        let magic = Array("SQLite format 3\0".utf8)
        var header = [UInt8](repeating: 0, count: 100)
        let count = header.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count != 0 else { return }
        guard count == header.count, Array(header.prefix(magic.count)) == magic else {
            throw JournalUnreadable(reason: "it is not an SQLite database (\(info.st_size) byte\(info.st_size == 1 ? "" : "s"))")
        }
    }

    /// Reads every page (`PRAGMA quick_check`): the journal holds a row per
    /// countdown with changes waiting, so this is milliseconds at most, and it
    /// finds a truncated or damaged file before a row is trusted to it.
    func checkWhole(_ db: SQLiteConnection) throws {
        let verdict = try db.transaction { try db.value("PRAGMA quick_check(1)")?.text }
        guard verdict == "ok" else { throw JournalUnreadable(reason: verdict ?? "PRAGMA quick_check gave no answer") }
    }

    /// Renames the unreadable journal aside (with its `-wal` and `-shm`) and
    /// counts what it may hold; the next write starts a new journal. Throws when
    /// it cannot be renamed (it then stays where it is, untouched).
    func setAside() throws -> (path: String, contents: JournalContents) {
        connection?.close()
        connection = nil
        var info = stat()
        guard lstat(path, &info) == 0 else { throw JournalError("\(path) is gone") }
        // Another process may have set it aside and started a new one since this
        // one was found unreadable: that one is left alone.
        if let openedFile, openedFile != (UInt64(info.st_dev), UInt64(info.st_ino)) {
            self.openedFile = nil
            throw JournalError("\(path) was replaced while it was read")
        }
        openedFile = nil
        let stamp = UTCTimestamp.iso8601(BootClock().wallNow()).filter { $0 != "-" && $0 != ":" }
        let aside = "\(path).unreadable-\(stamp)-\(getpid())"
        guard lstat(aside, &info) != 0 else { throw JournalError("\(aside) exists") }
        guard rename(path, aside) == 0 else {
            throw JournalError("cannot rename \(path) to \(aside): \(String(cString: strerror(errno)))")
        }
        // Its write-ahead log holds the last changes: it goes with it, under the
        // name SQLite looks for beside the new one.
        for suffix in ["-wal", "-shm"] where lstat(path + suffix, &info) == 0 {
            _ = rename(path + suffix, aside + suffix)
        }
        return (aside, Self.contents(of: aside))
    }

    /// The changes the file at `path` may hold, as far as its rows can be read,
    /// through a read-only connection.
    static func contents(of path: String) -> JournalContents {
        // A truncated file has fewer pages than its header says: SQLite refuses
        // it whole, unless told to trust the file's size (a setting of this
        // read-only connection, which writes nothing), and then reads the rows
        // that lie before the cut.
        guard let db = try? SQLiteConnection(path: path, readOnly: true, setUp: "PRAGMA writable_schema = ON") else { return .unknown }
        defer { db.close() }
        if let total = try? db.transaction(.deferred, { () throws -> Int64? in try db.value("SELECT COALESCE(SUM(count), 0) FROM pending")?.integer }) {
            return .exactly(Int(total))
        }
        // Damaged: row by row, up to the first that cannot be read. A row stands
        // for one change at least, whatever its damaged count says.
        var total = 0, read = 0
        try? db.transaction(.deferred) { () throws -> Void in
            try db.cached("SELECT count FROM pending").forEachRow { row in
                let count = row.value(at: 0).integer.map(Int.init) ?? 1
                total += count >= 1 ? count : 1
                read += 1
                return true
            }
        }
        return read == 0 ? .unknown : .atLeast(total)
    }
}
