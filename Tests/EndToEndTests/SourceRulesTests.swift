import Foundation
import Testing

/// Rules about I/O that hold for every source file of the product (not the
/// benchmarks): output goes through the checked writer, never through code that
/// traps on a closed pipe or a full disk, or drops the error.
@Suite("Sources write output only through the checked writer")
struct SourceRulesTests {
    static let sources = BinaryRunner.packageRoot.appendingPathComponent("Sources")

    /// (file, line number, line) of every Swift line in Sources, benchmarks aside.
    static func lines() throws -> [(String, Int, String)] {
        var result: [(String, Int, String)] = []
        let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String } ?? []
        for file in files where file.hasSuffix(".swift") && !file.hasPrefix("cdbench/") {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                if code.hasPrefix("//") { continue }
                result.append((file, i + 1, String(line)))
            }
        }
        return result
    }

    @Test("no try!, no FileHandle writes, no Swift print in the product's sources")
    func noTrappingOrSilentWrites() throws {
        let lines = try Self.lines()
        #expect(lines.count > 1000)  // the walk found the sources
        for (file, number, line) in lines {
            #expect(!line.contains("try!"), "\(file):\(number): \(line)")
            #expect(!line.contains("FileHandle.standardOutput") && !line.contains("FileHandle.standardError"), "\(file):\(number): \(line)")
            // Swift's print drops write errors: commands use emit(_:what:).
            let printCall = line.range(of: #"(^|[^A-Za-z0-9_.])print\("#, options: .regularExpression)
            #expect(printCall == nil, "\(file):\(number): \(line)")
        }
    }
}
