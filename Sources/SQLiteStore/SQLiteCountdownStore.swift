#if canImport(Glibc)
import Glibc
#endif
import CountdownCore
import CSQLite
import FoundationEssentials
import SQLiteAccess

/// Countdowns kept in SQLite at `DIR/state.sqlite`, shared by every cdscript
/// process that uses the same directory.
///
/// - Opened lazily, on the first operation: a script that persists nothing never
///   creates or touches the file. The outcome of opening is kept, so an unusable
///   store fails every operation with the same clear error and nothing is retried
///   against a file that might be damaged further.
/// - Before writing anything, an existing file is inspected read-only: a file that
///   is not a cdscript store, is damaged, or was written by a newer cdscript is
///   refused and left byte for byte as it was.
/// - WAL journal, `synchronous = FULL`, a busy timeout, IMMEDIATE write
///   transactions: every call commits before it returns, a `kill -9` at any moment
///   leaves the last committed state, and several processes may write at once
///   without "database is locked" errors.
/// - The file is created with mode 0600 (SQLite gives its -wal and -shm files the
///   same), new directories with 0700.
public final class SQLiteCountdownStore: CountdownStoreBackend {
    public let directory: String
    public let path: String
    /// How long a write waits for another process's transaction.
    public let busyTimeout: TimeInterval
    /// The outcome of opening (internal for `SQLiteCountdownStore+Replaced.swift`).
    var opened: OpenOutcome?
    /// The file that outcome is of: its device and inode when it was opened.
    var openedFile: FileIdentity?
    /// Countdown rows and change-log entries read so far: what tests bound the
    /// work of following the store by (one change elsewhere reads a row or two,
    /// whatever the store holds).
    public internal(set) var rowsRead = 0
    /// Read transactions (a lone statement counts as one) run so far: what tests
    /// bound a run of loads by.
    public internal(set) var readTransactions = 0
    /// The newest schema version this build writes (`PRAGMA user_version` of a migrated store).
    public static var schemaVersion: Int { StoreSchema.version }
    /// Write transactions run so far: what tests bound bulk changes by (removing a
    /// thousand countdowns is not a thousand commits).
    public internal(set) var writeTransactions = 0
    /// Loads since the change log was last looked at, and the rows read ahead
    /// for the ones to come (`SQLiteCountdownStore+ReadAhead.swift`).
    var loadsSinceLook = 0
    var readAheadCopy: ReadAheadCopy?
    /// Records in the copy not handed out yet, and whether a copy was used up since the last look.
    var readAheadLeft = 0
    var readAheadSpent = false
    /// Entries of copies still held when a look at the change log let them go: what a test bounds.
    public internal(set) var readAheadDroppedAtLook = 0
    /// Whole-file integrity checks (`PRAGMA quick_check`) run so far.
    public internal(set) var integrityChecks = 0
    /// The SQL statements `glance()` ran (SQLiteCountdownStore+Glance.swift).
    public let glanceCounter = GlanceCounter()
    /// The processes that have the store open for writing (`SQLiteCountdownStore+Crash.swift`).
    let writers: StoreWriters
    /// True once this store registered the process among them.
    var isRegisteredWriter = false
    /// True when opening found migrations to apply (they write).
    private var needsMigration = false
    /// The last change-log entry this process has accounted for, once a change
    /// watcher follows the store (`ChangeLog.swift`); nil: nobody follows.
    var changeLogPosition: Int64?
    /// Called once, right after the first open succeeds and before the operation
    /// that caused it runs (the change watcher takes its baseline there).
    public var didOpen: (() -> Void)?

    /// True once the store has been opened (successfully or not).
    public var hasOpened: Bool { opened != nil }

    public init(directory: String, busyTimeout: TimeInterval = 10) {
        self.directory = directory
        self.path = StateDirectory.storePath(in: directory)
        self.busyTimeout = busyTimeout
        self.writers = StoreWriters(directory: directory)
    }

    deinit {
        if isRegisteredWriter { writers.release() }
        if case .success? = opened, let openedFile { OpenStoreFiles.closed(openedFile) }
    }

    /// True when the store file exists (read-only commands do not create one),
    /// and also when it cannot be told (a folder without search permission) or
    /// cannot be (the folder, or a folder above it, is a file): opening it then
    /// fails with a clear error, the same for every command, rather than the
    /// store reading as empty.
    public var fileExists: Bool {
        var info = stat()
        if stat(path, &info) == 0 { return true }
        return errno != ENOENT
    }

    /// True for an empty file that has not been opened yet: a store that another
    /// process has just created and not yet set up, or one killed in between.
    /// Reads see no countdowns without opening it, so a read-only command leaves
    /// it as it is; the first write sets it up (there is nothing in it to lose).
    var isUnopenedEmptyFile: Bool {
        guard opened == nil else { return false }
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && info.st_size == 0
    }

    // MARK: CountdownStoreBackend

    public func load(id: String) throws -> StoredCountdown? {
        try checkID(id)
        if isUnopenedEmptyFile { return nil }
        if let answer = readAhead(id) { return try answer.get() }
        return try access(readOnly: true, single: true) { db in try self.readRow(id: id, db) }
    }

    /// One row by its id, through a statement prepared once.
    func readRow(id: String, _ db: SQLiteConnection) throws -> StoredCountdown? {
        let statement = try db.cached(StoredCountdown.selectSQL + " WHERE id = ?")
        try statement.bind([.text(id)])
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        rowsRead += 1
        return try StoredCountdown(columnsOf: statement, path: path)
    }

    /// Every stored countdown; fails on the first row that cannot be read
    /// (`listing()` reads past such rows).
    public func list() throws -> [StoredCountdown] {
        let listing = try listing()
        if let first = listing.unreadable.first { throw StoreError(unreadable: first) }
        return listing.countdowns
    }

    /// The countdowns that can be read, and the rows that cannot, each named.
    public func listing() throws -> StoredCountdownListing {
        if isUnopenedEmptyFile { return StoredCountdownListing(countdowns: []) }
        return try access(readOnly: true) { db in try self.readAll(db) }
    }

    public func save(_ countdown: StoredCountdown) throws {
        try checkID(countdown.id)
        try checkStorable(countdown)
        try access { db in try Self.upsert(countdown, db) }
    }

    /// Every record in one transaction: all are stored, or none.
    public func saveAll(_ records: [StoredCountdown]) throws {
        for record in records {
            try checkID(record.id)
            try checkStorable(record)
        }
        guard !records.isEmpty else { return }
        try access { db in
            let statement = try db.cached(StoredCountdown.upsertSQL)
            for record in records { try statement.run(record.arguments) }
        }
        // A bulk write leaves a log as large as itself behind (SQLiteCountdownStore+BulkDelete.swift).
        if records.count > deleteSlice { truncateWriteAheadLog() }
    }

    @discardableResult
    public func delete(id: String) throws -> Bool {
        try checkID(id)
        if isUnopenedEmptyFile { return false }
        return try access { db in
            try db.execute("DELETE FROM countdown WHERE id = ?", [.text(id)])
            return db.changes > 0
        }
    }

    @discardableResult
    public func modify<Result>(id: String, _ change: (inout StoredCountdown?) -> Result) throws -> Result {
        try checkID(id)
        if isUnopenedEmptyFile {
            // Nothing is stored: a change that stores nothing leaves the file as it is.
            var record: StoredCountdown?
            let result = change(&record)
            guard let record else { return result }
            precondition(record.id == id, "a countdown cannot change its id")
            try save(record)
            return result
        }
        return try access { db in
            let before = try self.readRow(id: id, db)
            var record = before
            let result = change(&record)
            if let record {
                precondition(record.id == id, "a countdown cannot change its id")
                if record != before {
                    try checkStorable(record)
                    try Self.upsert(record, db)
                }
            } else if before != nil {
                try db.execute("DELETE FROM countdown WHERE id = ?", [.text(id)])
            }
            return result
        }
    }

    func readAll(_ db: SQLiteConnection) throws -> StoredCountdownListing {
        var listing = StoredCountdownListing(countdowns: [])
        try db.cached(StoredCountdown.selectSQL + " ORDER BY id").forEachRow { row in
            rowsRead += 1
            do {
                listing.countdowns.append(try StoredCountdown(columnsOf: row, path: path))
            } catch let error as StoreError {
                guard let unreadable = error.unreadable else { throw error }
                listing.unreadable.append(unreadable)
            }
            return true
        }
        return listing
    }

    /// Nothing is written that could not be read back.
    private func checkStorable(_ countdown: StoredCountdown) throws(StoreError) {
        do {
            try CountdownRange.check(countdown)
        } catch {
            throw StoreError(.failed, path: path, reason: "the countdown '\(VisibleText.escaped(countdown.id))' cannot be stored: \(error)")
        }
    }

    /// Ids with a NUL byte are refused: earlier builds bound ids as C text, which
    /// ends at the first NUL ("k\0one" and "k\0two" were both "k"), and tools
    /// such as the sqlite3 shell still show them cut there.
    func checkID(_ id: String) throws(StoreError) {
        guard !id.utf8.contains(0) else {
            throw StoreError(.failed, path: path, reason: "an id with a NUL byte cannot be stored (\(id.debugDescription))")
        }
    }

    // MARK: Opening

    /// Opens (and if needed creates) the store. The first outcome is kept.
    @discardableResult
    public func open() throws(StoreError) -> SQLiteConnection {
        if let opened { return try opened.get() }
        let result: OpenOutcome
        do {
            result = .success(try openRetryingContention())
        } catch {
            result = .failure(error)
        }
        opened = result
        openedFile = FileIdentity(of: path)
        if case .success = result, let openedFile { OpenStoreFiles.opened(openedFile) }
        if case .success = result, let didOpen {
            self.didOpen = nil
            didOpen()
        }
        return try result.get()
    }

    /// Processes that open the same new store at once can meet in SQLite's deadlock
    /// avoidance (each holds a read lock and wants the write lock that switching
    /// the file to WAL needs): one is answered SQLITE_BUSY at once, without the busy
    /// timeout. Opening changes nothing until it succeeds, so it is tried again,
    /// after a short random pause, for as long as the busy timeout allows.
    private func openRetryingContention() throws(StoreError) -> SQLiteConnection {
        let deadline = Date().addingTimeInterval(busyTimeout)
        while true {
            do {
                return try openNow()
            } catch where error.isContention && Date() < deadline {
                usleep(useconds_t.random(in: 5_000...30_000))
            }
        }
    }

    private func openNow() throws(StoreError) -> SQLiteConnection {
        try makeDirectory()
        try createFileIfMissing()
        try checkHeader()
        try checkAfterCrash()
        // No journal mode yet: nothing may be written before the file is inspected.
        let db: SQLiteConnection
        do {
            db = try SQLiteConnection(path: path, busyTimeout: busyTimeout)
        } catch {
            throw classify(error)
        }
        do {
            try inspect(db)
            let mode = try db.value("PRAGMA journal_mode = WAL")?.text
            guard mode == "wal" else { throw StoreError(.failed, path: path, reason: "cannot switch to WAL journal mode (got \(mode ?? "nothing"))") }
            // A countdown a script was told is stored must stay stored, power loss included.
            try db.execute("PRAGMA synchronous = FULL")
        } catch {
            db.close()
            throw classify(error)
        }
        if needsMigration { registerAsWriter() }
        do {
            try migrate(db)
        } catch {
            db.close()
            throw error
        }
        return db
    }

    private func makeDirectory() throws(StoreError) {
        var info = stat()
        if stat(directory, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFDIR else {
                throw StoreError(.unavailable, path: path, reason: "\(directory) is not a directory")
            }
            return
        }
        // Each missing component gets 0700: state is private to its user (XDG).
        var prefix = directory.hasPrefix("/") ? "" : "."
        for component in directory.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o700) != 0 && errno != EEXIST {
                throw StoreError(.unavailable, path: path, reason: "cannot create directory \(prefix): \(String(cString: strerror(errno)))")
            }
        }
    }

    private func createFileIfMissing() throws(StoreError) {
        try refuseUnlessRegularFile()
        let fd = Glibc.open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        if fd >= 0 {
            close(fd)
            return
        }
        guard errno == EEXIST else {
            throw StoreError(.unavailable, path: path, reason: String(cString: strerror(errno)))
        }
        // Made by another process since the check above: a folder or a FIFO too is refused.
        try refuseUnlessRegularFile()
        guard Glibc.access(path, R_OK | W_OK) == 0 else {
            throw StoreError(.unavailable, path: path, reason: "\(String(cString: strerror(errno))); it was left as it is")
        }
    }

    /// SQLite takes a file too short to hold its header for an empty database,
    /// and would write a new one over it: a file that has bytes but not SQLite's
    /// header is refused here, before SQLite opens it. (An empty file is a store
    /// being created, by this process or another.)
    func checkHeader() throws(StoreError) {
        // Closing a descriptor of a file this process has a connection to would drop
        // that connection's locks (OpenStoreFiles.swift): such a file is not read again.
        if let file = FileIdentity(of: path), OpenStoreFiles.isOpen(file) { return }
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw StoreError(.unavailable, path: path, reason: "\(String(cString: strerror(errno))); it was left as it is")
        }
        defer { close(fd) }
        let magic = Array("SQLite format 3\0".utf8)
        var header = [UInt8](repeating: 0, count: magic.count)
        let count = header.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count != 0 else { return }
        guard count == magic.count, header == magic else {
            var info = stat()
            let size = fstat(fd, &info) == 0 ? " (\(info.st_size) byte\(info.st_size == 1 ? "" : "s"))" : ""
            throw StoreError(.corrupt, path: path, reason: "it is not an SQLite database\(size)")
        }
    }

    /// Looks at the file with reads only: a damaged file, someone else's database
    /// or a newer schema must stay exactly as it is. (A read may replay the WAL a
    /// killed process left behind into the shared-memory index, which changes no data.)
    private func inspect(_ db: SQLiteConnection) throws {
        try db.transaction(.deferred) {
            let version = Int(try db.value("PRAGMA user_version")?.integer ?? 0)
            let tables = Set(try db.texts("SELECT name FROM sqlite_master WHERE type = 'table'"))
            if version > StoreSchema.version {
                throw StoreError(.newerSchema, path: path, reason: "schema version \(version); this one knows up to \(StoreSchema.version)")
            }
            if tables.contains("grdb_migrations"), try StoreSchema.migrator.hasBeenSuperseded(db) {
                let known = try StoreSchema.migrator.appliedIdentifiers(db)
                throw StoreError(.newerSchema, path: path, reason: "it has migrations this cdscript does not know, beyond \(known.sorted().joined(separator: ", "))")
            }
            if !tables.isEmpty && !tables.contains("countdown") && !tables.isSubset(of: ["grdb_migrations"]) {
                throw StoreError(.corrupt, path: path, reason: "it has tables but no 'countdown' table")
            }
            // The whole file is checked where it pays, not at every open (that cost
            // every command O(file)): before a migration writes to an existing store,
            // and when an operation finds it damaged (`checkIntegrity`).
            needsMigration = try !StoreSchema.migrator.hasCompletedMigrations(db)
            if tables.contains("countdown"), needsMigration {
                integrityChecks += 1
                try Self.quickCheck(db, path: path)
            }
        }
    }

    static func quickCheck(_ db: SQLiteConnection, path: String) throws {
        let check = try db.texts("PRAGMA quick_check")
        guard check == ["ok"] else {
            throw StoreError(.corrupt, path: path, reason: "integrity check: \(check.prefix(3).joined(separator: "; "))")
        }
    }

    private func migrate(_ db: SQLiteConnection) throws(StoreError) {
        // Processes opening a store at once may each find migrations to apply: the
        // migrator applies them all in one IMMEDIATE transaction that reads what is
        // applied under the write lock, so the first applies them and the others,
        // waiting for that lock, find nothing left (GRDB's migrator, used before,
        // ran each migration in a transaction of its own, and a loser failed with
        // "duplicate column name" and had to try again).
        do {
            try StoreSchema.migrator.migrate(db)
        } catch {
            throw classify(error)
        }
    }

    // MARK: Access

    /// Runs `body` in one transaction. `readOnly`: a deferred read, which in WAL
    /// mode never waits for a writer (a process following changes reads while
    /// others write).
    /// `single`: the body is one statement, atomic on its own, and runs without
    /// an explicit transaction (a third of the cost of a lone read).
    ///
    /// A file found damaged by an operation is refused from then on, as at opening:
    /// nothing more is written to it.
    func access<T>(readOnly: Bool = false, single: Bool = false, _ body: (SQLiteConnection) throws -> T) throws(StoreError) -> T {
        let db = try open()
        do {
            if readOnly || single { readTransactions += 1 }
            if single { return try body(db) }
            if readOnly { return try db.transaction(.deferred) { try body(db) } }
            // What this process writes, a copy read ahead does not have.
            readAheadCopy = nil
            registerAsWriter()
            writeTransactions += 1
            var wrote = false
            let result = try db.transaction(.immediate) {
                let before = db.totalChanges
                let logBefore = try self.changeLogPosition == nil ? nil : Self.lastChange(db)
                let result = try body(db)
                wrote = db.totalChanges != before
                if wrote { try self.wroteChanges(db, logBefore: logBefore) }
                return result
            }
            if wrote { signalChange() }
            return result
        } catch {
            let failure = (error as? StoreError) ?? classify(error)
            if failure.kind == .corrupt { refuse(failure, db) }
            throw failure
        }
    }

    /// Keeps `failure` as the outcome of opening: every later operation fails
    /// with it, and the file is not touched again.
    private func refuse(_ failure: StoreError, _ db: SQLiteConnection) {
        opened = .failure(failure)
        db.close()
    }

    /// The file other processes' `SQLiteChangeWatcher`s are woken by.
    public static let changeSignalName = StateDirectory.fileName + "-changed"

    /// Tells watchers that a commit is visible now: one byte written over itself
    /// in `state.sqlite-changed` (an inotify event). The WAL write that precedes a
    /// commit wakes them too, but possibly before the commit can be read.
    private func signalChange() {
        let fd = Glibc.open(directory + "/" + Self.changeSignalName, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        var byte: UInt8 = 0x2A
        _ = pwrite(fd, &byte, 1, 0)
        close(fd)
    }

    func classify(_ error: any Error) -> StoreError {
        if let error = error as? StoreError { return error }
        guard let error = error as? SQLiteError else {
            return StoreError(.failed, path: path, reason: "\(error)")
        }
        let reason = error.message
        switch error.primaryCode {
        case SQLITE_NOTADB, SQLITE_CORRUPT:
            return StoreError(.corrupt, path: path, reason: reason)
        case SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_READONLY, SQLITE_AUTH:
            return StoreError(.unavailable, path: path, reason: "\(reason); it was left as it is")
        case SQLITE_BUSY:
            var busy = StoreError(.failed, path: path, reason: reason)
            busy.isContention = true
            return busy
        default:
            return StoreError(.failed, path: path, reason: reason)
        }
    }

    private static func upsert(_ countdown: StoredCountdown, _ db: SQLiteConnection) throws {
        try db.cached(StoredCountdown.upsertSQL).run(countdown.arguments)
    }
}

/// The outcome of opening a store: the connection, or why every later operation
/// fails. Not `Result<SQLiteConnection, StoreError>`: a generic type whose
/// parameter must conform to a protocol is made at run time by its first user,
/// who checks the conformance by scanning every conformance in the binary (0.18
/// million instructions of a `cdscript status` call); this one costs nothing to make.
enum OpenOutcome {
    case success(SQLiteConnection)
    case failure(StoreError)

    func get() throws(StoreError) -> SQLiteConnection {
        switch self {
        case .success(let db): return db
        case .failure(let error): throw error
        }
    }
}
