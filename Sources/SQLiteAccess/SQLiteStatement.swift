import CSQLite

/// One compiled SQL statement of a connection. Run it with `run` (a change) or
/// read its rows with `step` and the column accessors; every helper resets it
/// when done, so that a statement kept for reuse holds no read lock between uses.
public final class SQLiteStatement {
    let handle: OpaquePointer
    /// The connection's handle, for its error messages.
    private let database: OpaquePointer
    public let sql: String
    /// Called at the first step after each reset: one execution of the statement.
    private let counter: StatementCounter
    private var started = false

    init(database: OpaquePointer, sql: String, counter: StatementCounter) throws(SQLiteError) {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(database, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw SQLiteError(code, database, sql: sql)
        }
        self.handle = statement
        self.database = database
        self.sql = sql
        self.counter = counter
    }

    deinit {
        sqlite3_finalize(handle)
    }

    // MARK: Arguments

    /// Resets the statement and binds `arguments` to its parameters, in order.
    public func bind(_ arguments: [SQLiteValue]) throws(SQLiteError) {
        reset()
        sqlite3_clear_bindings(handle)
        let expected = Int(sqlite3_bind_parameter_count(handle))
        guard arguments.count == expected else {
            throw SQLiteError(code: SQLITE_MISUSE, message: "\(arguments.count) argument\(arguments.count == 1 ? "" : "s") for \(expected) parameter\(expected == 1 ? "" : "s")", sql: sql)
        }
        for (offset, value) in arguments.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .null:
                code = sqlite3_bind_null(handle, index)
            case .integer(let n):
                code = sqlite3_bind_int64(handle, index, n)
            case .real(let d):
                code = sqlite3_bind_double(handle, index, d)
            case .text(var s):
                // By its length, not as C text: a NUL inside is kept.
                code = s.withUTF8 { bytes in
                    guard let start = bytes.baseAddress else { return sqlite3_bind_text(handle, index, "", 0, csqlite_transient()) }
                    return UnsafeRawPointer(start).withMemoryRebound(to: CChar.self, capacity: bytes.count) { text in
                        sqlite3_bind_text(handle, index, text, Int32(bytes.count), csqlite_transient())
                    }
                }
            case .blob(let bytes):
                code = bytes.withUnsafeBytes { raw in
                    // A zero-length blob is bound as one, not as NULL.
                    raw.baseAddress == nil ? sqlite3_bind_zeroblob(handle, index, 0)
                        : sqlite3_bind_blob(handle, index, raw.baseAddress, Int32(raw.count), csqlite_transient())
                }
            }
            guard code == SQLITE_OK else { throw SQLiteError(code, database, sql: sql) }
        }
    }

    // MARK: Stepping

    /// Runs the statement to its next row: true when there is one (read it with
    /// the column accessors), false when it is done (it is then reset).
    public func step() throws(SQLiteError) -> Bool {
        if !started {
            started = true
            counter.count += 1
        }
        switch sqlite3_step(handle) {
        case SQLITE_ROW:
            return true
        case SQLITE_DONE:
            reset()
            return false
        case let code:
            // The connection's message is the step's; resetting would repeat the code only.
            let error = SQLiteError(code, database, sql: sql)
            reset()
            throw error
        }
    }

    /// Makes the statement ready to run again from its start (the bindings stay),
    /// ending the read it was in the middle of.
    public func reset() {
        sqlite3_reset(handle)
        started = false
    }

    /// Binds `arguments` and runs the statement to its end (a change).
    public func run(_ arguments: [SQLiteValue] = []) throws(SQLiteError) {
        try bind(arguments)
        while try step() {}
    }

    /// Binds `arguments` and calls `body` with each row until it returns false;
    /// the statement is reset afterwards however it ended.
    public func forEachRow(_ arguments: [SQLiteValue] = [], _ body: (SQLiteStatement) throws -> Bool) throws {
        try bind(arguments)
        defer { reset() }
        while try step() {
            guard try body(self) else { return }
        }
    }

    /// The first row's columns (nil: no row), copied; the statement is reset.
    public func firstRow(_ arguments: [SQLiteValue] = []) throws(SQLiteError) -> SQLiteRow? {
        try bind(arguments)
        defer { reset() }
        return try step() ? row() : nil
    }

    /// Every row, copied.
    public func allRows(_ arguments: [SQLiteValue] = []) throws -> [SQLiteRow] {
        var rows: [SQLiteRow] = []
        try forEachRow(arguments) { statement in
            rows.append(statement.row())
            return true
        }
        return rows
    }

    // MARK: Columns of the current row

    public var columnCount: Int { Int(sqlite3_column_count(handle)) }

    /// The name of column `index` as the statement gives it (`AS` names included).
    public func columnName(_ index: Int) -> String {
        sqlite3_column_name(handle, Int32(index)).map { String(cString: $0) } ?? ""
    }

    /// The value of column `index` of the current row, of the type SQLite holds it in.
    public func value(at index: Int) -> SQLiteValue {
        let column = Int32(index)
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT:
            return .real(sqlite3_column_double(handle, column))
        case SQLITE_TEXT:
            let bytes = sqlite3_column_text(handle, column)
            let count = Int(sqlite3_column_bytes(handle, column))
            guard let bytes else { return .text("") }
            // By its length: a NUL inside is kept; bytes that are not UTF-8 are shown repaired.
            return .text(String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, column))
            guard let bytes = sqlite3_column_blob(handle, column), count > 0 else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default:
            return .null
        }
    }

    /// The current row's columns, copied (names included).
    public func row() -> SQLiteRow {
        let count = columnCount
        return SQLiteRow(names: (0..<count).map(columnName), values: (0..<count).map(value(at:)))
    }
}

/// Statement executions on one connection (what `SQLiteConnection.statementsRun` reports).
final class StatementCounter {
    var count = 0
}
