import Foundation
import SQLiteAccess
import Testing

@Suite("A connection runs statements, keeps compiled ones, and commits or rolls back whole transactions")
struct SQLiteConnectionTests {
    @Test("several statements run as one script; white space and a comment after the last are nothing")
    func script() throws {
        let db = try SQLiteConnection(path: ":memory:")
        try db.execute("CREATE TABLE t (x); INSERT INTO t VALUES (1); INSERT INTO t VALUES (2);\n  -- done\n")
        #expect(try db.value("SELECT sum(x) FROM t") == .integer(3))
        #expect(db.totalChanges == 2)
    }

    @Test("a statement is compiled once per connection and reused; a row left unread does not keep it busy")
    func cachedStatements() throws {
        let db = try SQLiteConnection(path: ":memory:")
        let first = try db.cached("SELECT 1")
        #expect(try db.cached("SELECT 1") === first)
        try db.execute("CREATE TABLE t (x); INSERT INTO t VALUES (1), (2), (3)")
        #expect(try db.value("SELECT x FROM t ORDER BY x") == .integer(1))
        // Read partly, then again from the start: a reset, not the second row.
        #expect(try db.value("SELECT x FROM t ORDER BY x") == .integer(1))
        var seen: [Int64] = []
        try db.cached("SELECT x FROM t ORDER BY x").forEachRow { row in
            seen.append(row.value(at: 0).integer ?? -1)
            return seen.count < 2
        }
        #expect(seen == [1, 2])
        #expect(try db.texts("SELECT 'a' UNION ALL SELECT 2 UNION ALL SELECT 'b'") == ["a", "b"])
    }

    @Test("changes, the last rowid and the statements run are counted")
    func counts() throws {
        let db = try SQLiteConnection(path: ":memory:")
        let before = db.statementsRun
        try db.execute("CREATE TABLE t (x)")
        try db.execute("INSERT INTO t VALUES (?)", [1])
        try db.execute("INSERT INTO t VALUES (?)", [2])
        #expect(db.lastInsertedRowID == 2)
        try db.execute("UPDATE t SET x = x + 1")
        #expect(db.changes == 2)
        #expect(db.statementsRun - before == 4)
    }

    @Test("a transaction whose body throws is rolled back, and the error is the body's")
    func rollback() throws {
        struct Stop: Error {}
        let db = try SQLiteConnection(path: ":memory:")
        try db.execute("CREATE TABLE t (x)")
        #expect(throws: Stop.self) {
            try db.transaction(.immediate) {
                try db.execute("INSERT INTO t VALUES (1)")
                throw Stop()
            }
        }
        #expect(!db.isInTransaction)
        #expect(try db.value("SELECT count(*) FROM t") == .integer(0))
        let answer = try db.transaction { () throws -> Int in
            try db.execute("INSERT INTO t VALUES (1)")
            #expect(db.isInTransaction)
            return 42
        }
        #expect(answer == 42 && !db.isInTransaction)
        #expect(try db.value("SELECT count(*) FROM t") == .integer(1))
    }

    @Test("a write lock held elsewhere is waited on for the busy timeout, then reported as SQLITE_BUSY; once it is let go, the write goes through")
    func busy() throws {
        let path = try scratchFolder() + "/db.sqlite"
        let holder = try SQLiteConnection(path: path, setUp: "PRAGMA journal_mode = WAL")
        try holder.execute("CREATE TABLE t (x)")
        let waiter = try SQLiteConnection(path: path, busyTimeout: 0.3)
        try holder.execute("BEGIN IMMEDIATE")
        let start = ContinuousClock.now
        let error = try #require(throws: SQLiteError.self) { try waiter.transaction(.immediate) { try waiter.execute("INSERT INTO t VALUES (1)") } }
        let waited = ContinuousClock.now - start
        #expect(error.primaryCode == 5, "\(error)")
        #expect(waited >= .milliseconds(250), "gave up after \(waited)")
        #expect(!waiter.isInTransaction)
        // A reader is not held up by the writer (WAL).
        #expect(try waiter.value("SELECT count(*) FROM t") == .integer(0))
        try holder.execute("COMMIT")
        try waiter.transaction(.immediate) { try waiter.execute("INSERT INTO t VALUES (1)") }
        #expect(try holder.value("SELECT count(*) FROM t") == .integer(1))
    }

    @Test("without a busy timeout, a held lock is reported at once")
    func busyAtOnce() throws {
        let path = try scratchFolder() + "/db.sqlite"
        let holder = try SQLiteConnection(path: path)
        try holder.execute("CREATE TABLE t (x); BEGIN IMMEDIATE")
        let other = try SQLiteConnection(path: path)
        let start = ContinuousClock.now
        #expect { try other.execute("BEGIN IMMEDIATE") } throws: { ($0 as? SQLiteError)?.primaryCode == 5 }
        #expect(ContinuousClock.now - start < .seconds(2))
    }
}
