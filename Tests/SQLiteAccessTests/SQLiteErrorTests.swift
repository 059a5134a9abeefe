import Foundation
import SQLiteAccess
import Testing

@Suite("An SQLite failure says what SQLite said: its code, its message and the statement")
struct SQLiteErrorTests {
    @Test("SQL that does not compile fails with SQLITE_ERROR, SQLite's message and the statement")
    func syntaxError() throws {
        let db = try SQLiteConnection(path: ":memory:")
        let error = try #require(throws: SQLiteError.self) { try db.execute("SELEC 1") }
        #expect(error.primaryCode == 1)
        #expect(error.message.contains("syntax error"), "\(error)")
        #expect(error.sql == "SELEC 1")
        #expect(error.description == "SQLite error 1: \(error.message) - while executing `SELEC 1`")
    }

    @Test("a constraint broken by a step fails with the extended code (SQLITE_CONSTRAINT_PRIMARYKEY) and names the column")
    func constraint() throws {
        let db = try SQLiteConnection(path: ":memory:")
        try db.execute("CREATE TABLE t (id TEXT PRIMARY KEY NOT NULL)")
        try db.execute("INSERT INTO t VALUES (?)", ["a"])
        let error = try #require(throws: SQLiteError.self) { try db.execute("INSERT INTO t VALUES (?)", ["a"]) }
        #expect(error.code == 1555)
        #expect(error.primaryCode == 19)
        #expect(error.message == "UNIQUE constraint failed: t.id")
        // The statement is reset by the failure: it runs again at once.
        try db.execute("INSERT INTO t VALUES (?)", ["b"])
        #expect(try db.value("SELECT count(*) FROM t") == .integer(2))
    }

    @Test("a file that is not a database is refused when it is opened, with SQLITE_NOTADB")
    func notADatabase() throws {
        let path = try scratchFolder() + "/not.sqlite"
        try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: SQLiteError.self) { try SQLiteConnection(path: path) }
        #expect(error.primaryCode == 26)
        #expect(error.message == "file is not a database")
    }

    @Test("a missing file is not created when creation is not asked for (SQLITE_CANTOPEN)")
    func missingFile() throws {
        let path = try scratchFolder() + "/missing.sqlite"
        let error = try #require(throws: SQLiteError.self) { try SQLiteConnection(path: path, create: false) }
        #expect(error.primaryCode == 14)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("a read-only connection refuses to write (SQLITE_READONLY)")
    func readOnly() throws {
        let path = try scratchFolder() + "/db.sqlite"
        try SQLiteConnection(path: path).execute("CREATE TABLE t (x)")
        let db = try SQLiteConnection(path: path, readOnly: true)
        let error = try #require(throws: SQLiteError.self) { try db.execute("INSERT INTO t VALUES (1)") }
        #expect(error.primaryCode == 8)
    }

    @Test("as many arguments as parameters, or SQLITE_MISUSE saying how many of each")
    func argumentCount() throws {
        let db = try SQLiteConnection(path: ":memory:")
        let error = try #require(throws: SQLiteError.self) { try db.value("SELECT ? + ?", [1]) }
        #expect(error.primaryCode == 21)
        #expect(error.message == "1 argument for 2 parameters")
    }

    @Test("a closed connection fails every call with SQLITE_MISUSE; closing twice does nothing")
    func closed() throws {
        let db = try SQLiteConnection(path: ":memory:")
        db.close()
        db.close()
        #expect(!db.isOpen)
        let error = try #require(throws: SQLiteError.self) { try db.execute("SELECT 1") }
        #expect(error.primaryCode == 21)
    }
}
