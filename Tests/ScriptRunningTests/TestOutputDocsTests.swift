import Foundation
import Testing
@testable import ScriptRunning

/// docs/testing.md lists `cdscript test -o`'s built-in outputs twice (the option
/// table and the busted-compatibility table): a copy of `TestOutput.BuiltIn`
/// that must not drift from it.
@Suite("docs/testing.md names the -o outputs that cdscript test has")
struct TestOutputDocsTests {
    static let page = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/testing.md")

    /// The table rows about `-o`, and the names they put in backticks.
    static func rows() throws -> [(row: Substring, names: [String])] {
        let text = try String(contentsOf: page, encoding: .utf8)
        return text.split(separator: "\n")
            .filter { $0.hasPrefix("| `-o") }
            .map { row in (row, row.matches(of: /`([A-Za-z]+)`/).map { String($0.1) }) }
    }

    @Test("the option table's -o row names exactly the built-in outputs, in their order")
    func optionTable() throws {
        let rows = try Self.rows()
        try #require(rows.count == 2, "two rows about -o: \(rows.map(\.row))")
        #expect(rows[0].names == TestOutput.BuiltIn.names, "\(rows[0].row)")
    }

    @Test("the busted-compatibility row names every built-in output, in their order")
    func compatibilityTable() throws {
        let rows = try Self.rows()
        try #require(rows.count == 2)
        let builtIn = Set(TestOutput.BuiltIn.names)
        #expect(rows[1].names.filter(builtIn.contains) == TestOutput.BuiltIn.names, "\(rows[1].row)")
    }
}
