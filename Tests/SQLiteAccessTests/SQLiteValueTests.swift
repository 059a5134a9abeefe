import SQLiteAccess
import Testing

@Suite("Values go in and come back as they were, at the extremes too")
struct SQLiteValueTests {
    /// `value` bound to a parameter and selected back.
    private func roundTrip(_ value: SQLiteValue) throws -> SQLiteValue? {
        let db = try SQLiteConnection(path: ":memory:")
        try db.execute("CREATE TABLE t (v)")
        try db.execute("INSERT INTO t VALUES (?)", [value])
        return try db.value("SELECT v FROM t")
    }

    @Test("Int64.min, Int64.max, -1 and 0 are kept exactly", arguments: [Int64.min, Int64.max, -1, 0])
    func integers(_ n: Int64) throws {
        #expect(try roundTrip(.integer(n)) == .integer(n))
    }

    @Test("text with a NUL byte inside is kept whole, not cut at the NUL")
    func nulInText() throws {
        let text = "k\0one"
        #expect(try roundTrip(.text(text)) == .text(text))
        // Two texts that differ only after the NUL are two values.
        let db = try SQLiteConnection(path: ":memory:")
        try db.execute("CREATE TABLE t (id TEXT PRIMARY KEY)")
        try db.execute("INSERT INTO t VALUES (?)", ["k\0one"])
        try db.execute("INSERT INTO t VALUES (?)", ["k\0two"])
        #expect(try db.value("SELECT count(*) FROM t") == .integer(2))
        #expect(try db.value("SELECT count(*) FROM t WHERE id = ?", ["k\0two"]) == .integer(1))
    }

    @Test("10,000 characters of text, some of them several bytes long, come back the same")
    func longText() throws {
        let alphabet: [Character] = Array("abcdefghijklmnopqrstuvwxyz") + ["é", "⏳"]
        let text = String((0..<10_000).map { alphabet[$0 % alphabet.count] })
        #expect(text.count == 10_000)
        #expect(try roundTrip(.text(text)) == .text(text))
    }

    @Test("empty text, an empty blob and NULL are three different values")
    func empties() throws {
        #expect(try roundTrip(.text("")) == .text(""))
        #expect(try roundTrip(.blob([])) == .blob([]))
        #expect(try roundTrip(.null) == .null)
        let db = try SQLiteConnection(path: ":memory:")
        #expect(try db.value("SELECT typeof(?), typeof(?), typeof(?)", ["", .blob([]), nil]) == .text("text"))
        let row = try db.prepare("SELECT typeof(?), typeof(?), typeof(?)").firstRow(["", .blob([]), nil])
        #expect(row?.values == [.text("text"), .text("blob"), .text("null")])
    }

    @Test("blobs with every byte value and reals come back the same")
    func blobsAndReals() throws {
        let bytes = (0...255).map(UInt8.init)
        #expect(try roundTrip(.blob(bytes)) == .blob(bytes))
        #expect(try roundTrip(.real(-0.1)) == .real(-0.1))
        #expect(try roundTrip(.real(Double.greatestFiniteMagnitude)) == .real(Double.greatestFiniteMagnitude))
    }

    @Test("a value keeps the type it was stored in, whatever the column's declared type")
    func storedType() throws {
        let db = try SQLiteConnection(path: ":memory:")
        try db.execute("CREATE TABLE t (n INTEGER)")
        try db.execute("INSERT INTO t VALUES (?)", ["three"])
        #expect(try db.value("SELECT n FROM t") == .text("three"))
    }

    @Test("values read in messages as they are: NULL, numbers bare, text quoted and escaped, blobs by size")
    func descriptions() {
        #expect(SQLiteValue.null.description == "NULL")
        #expect(SQLiteValue.integer(-5).description == "-5")
        #expect(SQLiteValue.text("a\"b\n").description == #""a\"b\n""#)
        #expect(SQLiteValue.blob([0, 255]).description == "Data(2 bytes)")
        #expect(SQLiteValue(nil as String?) == .null && SQLiteValue(true) == .integer(1) && SQLiteValue(7 as Int?) == .integer(7))
    }

    @Test("rows are read by position or by column name; a missing column reads as NULL")
    func rows() throws {
        let db = try SQLiteConnection(path: ":memory:")
        let row = try #require(try db.prepare("SELECT 1 AS one, 'x' AS ex").firstRow())
        #expect(row[0] == .integer(1) && row["ex"] == .text("x"))
        #expect(row["none"] == .null && row[5] == .null)
        #expect(row.hasColumn("one") && !row.hasColumn("none"))
    }
}
