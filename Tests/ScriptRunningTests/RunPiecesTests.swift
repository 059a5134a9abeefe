import Foundation
import Testing
@testable import ScriptRunning

@Suite("arg's negative indices are the command line before the script, as lua5.4 sets them")
struct InterpreterArgumentsTests {
    @Test("the words before the script are the program and its options")
    func wordsBeforeTheScript() {
        let line = ["cdscript", "run", "--plain", "tea.lua", "3m", "--loud"]
        #expect(InterpreterArguments.beforeScript(scriptArguments: ["3m", "--loud"], commandLine: line) == ["cdscript", "run", "--plain"])
    }

    @Test("a script without arguments has every word before it")
    func noArguments() {
        #expect(InterpreterArguments.beforeScript(scriptArguments: [], commandLine: ["cdscript", "tea.lua"]) == ["cdscript"])
    }

    @Test("when the arguments fill the command line, only the program is before the script")
    func onlyTheProgram() {
        #expect(InterpreterArguments.beforeScript(scriptArguments: ["a", "b"], commandLine: ["cdscript", "b"]) == ["cdscript"])
    }

    @Test("this program's path is whole, so that a spec that changes folder still finds it")
    func executablePathIsAbsolute() {
        #expect(InterpreterArguments.executablePath.hasPrefix("/"))
    }
}

@Suite("A script reloaded on save follows its file and the file a link points to")
struct ScriptReloaderFilesTests {
    @Test("a relative path is followed as the absolute one, dots resolved")
    func absolutePaths() {
        let here = FileManager.default.currentDirectoryPath
        #expect(ScriptReloader.absolute("tea.lua") == URL(fileURLWithPath: here).appendingPathComponent("tea.lua").path)
        #expect(ScriptReloader.absolute("/a/b/../c.lua") == "/a/c.lua")
    }

    @Test("saving the link's target, or a new link in its place, both change the script")
    func linkAndTarget() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reload-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let target = folder + "/real.lua"
        let link = folder + "/tea.lua"
        try "".write(toFile: target, atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let resolvedTarget = URL(fileURLWithPath: target).resolvingSymlinksInPath().path
        #expect(ScriptReloader.linkAndTarget(link) == [link, resolvedTarget])
    }

    @Test("a file that is not there is followed by its name alone, to be seen when it is saved")
    func missingFile() {
        #expect(ScriptReloader.linkAndTarget("/no/such/folder/tea.lua") == ["/no/such/folder/tea.lua"])
    }
}

@Suite("--memory-limit sizes are bytes, or K, M and G")
struct MemorySizeTests {
    @Test("units multiply by powers of 1024, in any case, a trailing B allowed")
    func units() {
        #expect(HardeningSettings.bytes("1048576") == 1_048_576)
        #expect(HardeningSettings.bytes("512M") == 512 << 20)
        #expect(HardeningSettings.bytes("1g") == 1 << 30)
        #expect(HardeningSettings.bytes("64KB") == 64 << 10)
        #expect(HardeningSettings.bytes("0") == 0)
        #expect(HardeningSettings.bytes("2kb") == 2 << 10)
        #expect(HardeningSettings.bytes("3mB") == 3 << 20)
        #expect(HardeningSettings.bytes("7b") == 7)
    }

    @Test("anything else, or a size past what a machine word holds, is refused")
    func refusals() {
        for text in ["", "M", "-1", "1.5G", "12T", "99999999999999999999", "\(Int.max)G"] {
            #expect(HardeningSettings.bytes(text) == nil, "\(text)")
        }
    }
}
