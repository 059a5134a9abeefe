import Foundation

/// A new, empty folder of this test's own.
func scratchFolder() throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-sqlite-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir
}
