import Foundation
@testable import LuaHost
import Testing

/// The folder a script file is in is where `require` looks first (PluginPath):
/// it must be that folder, absolute and without `.` or `..`, whatever path named the script.
@Suite("A script's folder, from the path that named it")
struct ScriptDirectoryTests {
    @Test("an absolute path with . and .. gives the folder as text resolves it; a relative one is taken from the current folder")
    func folderOfTheScript() throws {
        let folder = try temporaryFolder()
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: true)
        try Data("local x = 1".utf8).write(to: URL(fileURLWithPath: folder + "/s.lua"))

        let bed = HostBed()
        #expect(bed.runFile(folder + "/./sub/../s.lua") == nil)
        #expect(bed.host.plugins.scriptDirectory == folder)

        // The same file named from the current folder by a relative path.
        let current = FileManager.default.currentDirectoryPath
        let up = String(repeating: "../", count: current.split(separator: "/").count)
        let relative = HostBed()
        #expect(relative.runFile(up + folder.dropFirst() + "/s.lua") == nil)
        #expect(relative.host.plugins.scriptDirectory == folder)
    }
}
