import Foundation
import ScriptTesting

/// Fixture Lua files live in Fixtures/, named without a test suffix, so that
/// `cdscript test` on a folder never picks them up: they fail on purpose.
enum Fixture {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func path(_ name: String) -> String {
        folder.appendingPathComponent(name).path
    }

    /// Writes `source` to a fresh temporary file named `name` and returns its path.
    static func write(_ source: String, name: String = "inline.lua") throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-runner-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent(name)
        try source.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// Runs the Lua test source and returns its report.
    static func run(_ source: String, filter: String? = nil) throws -> FileReport {
        TestRunner(filter: filter).run(file: try write(source))
    }
}
