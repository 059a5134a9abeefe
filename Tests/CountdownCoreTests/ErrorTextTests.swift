import CountdownCore
import Foundation
import Testing

@Suite("ErrorText says what failed with a file, in the system's words, without Foundation's localized strings")
struct ErrorTextTests {
    @Test("writing over an existing file names the file and says it exists")
    func existingFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("errortext-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("tea.lua")
        try Data("x".utf8).write(to: file)
        let error = try #require(throws: (any Error).self) { try Data("y".utf8).write(to: file, options: .withoutOverwriting) }
        let line = ErrorText.line(error)
        #expect(line.contains("tea.lua") && line.contains("File exists"), "\(line)")
    }

    @Test("a folder that cannot be made under a file says why")
    func folderUnderAFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("errortext-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("plain")
        try Data().write(to: file)
        let error = try #require(throws: (any Error).self) {
            try FileManager.default.createDirectory(atPath: file.path + "/sub", withIntermediateDirectories: true)
        }
        let line = ErrorText.line(error)
        #expect(line.contains("plain") && (line.contains("Not a directory") || line.contains("File exists")), "\(line)")
    }

    @Test("an error of another kind is described as it is")
    func otherErrors() {
        struct Refusal: Error, CustomStringConvertible { var description: String { "refused" } }
        #expect(ErrorText.line(Refusal()) == "refused")
        #expect(ErrorText.line(POSIXError(.ENOENT)) == "No such file or directory")
    }
}
