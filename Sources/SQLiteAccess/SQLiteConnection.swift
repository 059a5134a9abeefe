import CSQLite

/// One connection to an SQLite database, used from one thread (SQLite's own
/// mutexes are off). Statements are prepared once and kept (`cached`), errors
/// carry SQLite's code and message, and a busy database is waited on for the
/// busy timeout before SQLITE_BUSY is reported.
public final class SQLiteConnection {
    private var handle: OpaquePointer?
    public let path: String
    /// The cached statements and their SQL, searched in order: a connection
    /// keeps a few dozen at most, and a `[String: SQLiteStatement]` made every
    /// one-shot command pay a scan of the binary's conformances to instantiate it
    /// (0.25 million instructions, a tenth of a `cdscript status` call).
    private var statementSQL: [String] = []
    private var statements: [SQLiteStatement] = []
    private let counter = StatementCounter()

    /// Opens `path` (":memory:" for a database of its own in memory).
    /// - readOnly: SQLite opens the file read-only: nothing can be written, and
    ///   closing never checkpoints the write-ahead log into the file.
    /// - create: a missing file is created (ignored when read-only).
    /// - busyTimeout: seconds a statement waits for another connection's lock.
    /// - setUp: statements run first, before anything is read (settings such as
    ///   `PRAGMA journal_mode`).
    /// The file's schema is read before this returns: a file that is not a
    /// database fails here (SQLITE_NOTADB), not at its first use.
    public init(path: String, readOnly: Bool = false, create: Bool = true, busyTimeout: Double = 0, setUp: String? = nil) throws(SQLiteError) {
        self.path = path
        _ = Self.configureOnce
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        flags |= readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0)
        var opened: OpaquePointer?
        let code = sqlite3_open_v2(path, &opened, flags, nil)
        guard code == SQLITE_OK, let opened else {
            let error = SQLiteError(code, opened)
            sqlite3_close_v2(opened)
            throw error
        }
        handle = opened
        sqlite3_extended_result_codes(opened, 1)
        sqlite3_busy_timeout(opened, Int32(clamping: Int((busyTimeout * 1000).rounded(.up))))
        do {
            if let setUp { try execute(setUp) }
            _ = try prepare("SELECT 1 FROM sqlite_master LIMIT 1").firstRow()
        } catch {
            close()
            throw error
        }
    }

    /// SQLite's process-wide settings, made before its first connection: pages
    /// of the cache as they are read (csqlite_page_cache_on_demand).
    private static let configureOnce: Void = { _ = csqlite_page_cache_on_demand() }()

    deinit {
        close()
    }

    /// Closes the connection (later calls fail with SQLITE_MISUSE); closing twice does nothing.
    public func close() {
        statementSQL.removeAll()
        statements.removeAll()
        guard let handle else { return }
        self.handle = nil
        sqlite3_close_v2(handle)
    }

    public var isOpen: Bool { handle != nil }

    private func open() throws(SQLiteError) -> OpaquePointer {
        guard let handle else { throw SQLiteError(code: SQLITE_MISUSE, message: "the connection to \(path) is closed") }
        return handle
    }

    // MARK: Statements

    /// Compiles `sql` (one statement) into a statement of its own.
    public func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        try SQLiteStatement(database: try open(), sql: sql, counter: counter)
    }

    /// The statement for `sql`, compiled at its first use on this connection and kept.
    public func cached(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let index = statementSQL.firstIndex(of: sql) { return statements[index] }
        let statement = try prepare(sql)
        statementSQL.append(sql)
        statements.append(statement)
        return statement
    }

    /// Runs `sql`, which may hold several statements separated by semicolons
    /// and takes no arguments.
    public func execute(_ sql: String) throws(SQLiteError) {
        let database = try open()
        var rest = Array(sql.utf8CString)
        try rest.withUnsafeMutableBufferPointer { buffer throws(SQLiteError) in
            var next: UnsafePointer<CChar>? = UnsafePointer(buffer.baseAddress)
            while let start = next, start.pointee != 0 {
                var compiled: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let code = sqlite3_prepare_v2(database, start, -1, &compiled, &tail)
                guard code == SQLITE_OK else { throw SQLiteError(code, database, sql: sql) }
                next = tail
                // White space or a comment after the last semicolon compiles to nothing.
                guard let compiled else { continue }
                defer { sqlite3_finalize(compiled) }
                counter.count += 1
                var result = sqlite3_step(compiled)
                while result == SQLITE_ROW { result = sqlite3_step(compiled) }
                guard result == SQLITE_DONE else { throw SQLiteError(result, database, sql: sql) }
            }
        }
    }

    /// Runs one statement with `arguments`, through the statement cache.
    public func execute(_ sql: String, _ arguments: [SQLiteValue]) throws(SQLiteError) {
        try cached(sql).run(arguments)
    }

    /// The first column of the first row (nil: no row).
    public func value(_ sql: String, _ arguments: [SQLiteValue] = []) throws(SQLiteError) -> SQLiteValue? {
        try cached(sql).firstRow(arguments)?[0]
    }

    /// The first column of every row, the text ones (as `SELECT name FROM ...` reads).
    public func texts(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> [String] {
        var texts: [String] = []
        try cached(sql).forEachRow(arguments) { row in
            if let text = row.value(at: 0).text { texts.append(text) }
            return true
        }
        return texts
    }

    // MARK: What was done

    /// Rows changed by the last INSERT, UPDATE or DELETE (not counting triggers').
    public var changes: Int { handle.map { Int(sqlite3_changes64($0)) } ?? 0 }
    /// Rows changed since the connection opened (triggers' included).
    public var totalChanges: Int { handle.map { Int(sqlite3_total_changes64($0)) } ?? 0 }
    /// The rowid of the last row inserted.
    public var lastInsertedRowID: Int64 { handle.map { sqlite3_last_insert_rowid($0) } ?? 0 }
    /// Statements run on this connection so far (each run of a kept statement counts).
    public var statementsRun: Int { counter.count }
    /// True inside a transaction begun and not yet ended.
    public var isInTransaction: Bool { handle.map { sqlite3_get_autocommit($0) == 0 } ?? false }

    // MARK: Transactions

    public enum TransactionKind: String, Sendable {
        /// Takes locks as statements need them: a read never waits for a writer (WAL).
        case deferred = "DEFERRED"
        /// Takes the write lock at once (waiting up to the busy timeout), so that
        /// what the body reads stays true until it commits.
        case immediate = "IMMEDIATE"
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when
    /// it throws (the error is rethrown as it was).
    public func transaction<T>(_ kind: TransactionKind = .deferred, _ body: () throws -> T) throws -> T {
        try cached("BEGIN \(kind.rawValue) TRANSACTION").run()
        let result: T
        do {
            result = try body()
            try cached("COMMIT TRANSACTION").run()
        } catch {
            // A failed COMMIT may leave the transaction open: it goes too.
            if isInTransaction { try? cached("ROLLBACK TRANSACTION").run() }
            throw error
        }
        return result
    }
}
