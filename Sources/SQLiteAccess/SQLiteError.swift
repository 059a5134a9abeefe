import CSQLite

/// An SQLite call that failed: SQLite's result code (extended: `SQLITE_BUSY_SNAPSHOT`
/// rather than `SQLITE_BUSY`) and its own message, and the statement it was running.
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
    /// The extended result code.
    public let code: Int32
    /// What SQLite said (`sqlite3_errmsg`), or the code's own text.
    public let message: String
    /// The SQL being prepared or run, when there was one.
    public let sql: String?

    public init(code: Int32, message: String, sql: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    /// The primary result code (`SQLITE_BUSY` for every kind of busy), what
    /// callers decide by.
    public var primaryCode: Int32 { code & 0xFF }

    public var description: String {
        var text = "SQLite error \(primaryCode): \(message)"
        if let sql { text += " - while executing `\(sql)`" }
        return text
    }

    /// The error of the last call on `handle`, which returned `code`.
    init(_ code: Int32, _ handle: OpaquePointer?, sql: String? = nil) {
        let text = handle.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
        self.init(code: code, message: text, sql: sql)
    }
}
