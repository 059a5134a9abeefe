import Foundation
import Testing

/// `cdscript new NAME`: a script, its tests and an editor setup that work at once.
@Suite("cdscript new creates a script that runs and tests that pass")
struct NewCommandTests {
    static func emptyFolder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-new-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test("new tea, then test passes and tea.lua runs")
    func newTea() throws {
        let dir = try Self.emptyFolder()
        let created = try BinaryRunner.run(["new", "tea"], in: dir)
        #expect(created.status == 0, "\(created.stderr)")
        for file in ["tea.lua", "tests/tea_spec.lua", ".luarc.json"] {
            #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent(file).path), "\(file)")
        }
        let script = try String(contentsOf: dir.appendingPathComponent("tea.lua"), encoding: .utf8)
        #expect(script.hasPrefix("-- tea.lua:"))
        for part in ["view.big", "countdown.formatter", "view.button"] { #expect(script.contains(part), "\(part)") }

        let test = try BinaryRunner.run(["test"], in: dir)
        #expect(test.status == 0, "\(test.stdout)\(test.stderr)")
        #expect(test.lines.last == "2 passed, 0 failed")

        let run = try BinaryRunner.run(["--speed", "20", "tea.lua", "2"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.lines.contains("status: Time's up"))
        #expect(run.lines.contains("again: [Start again] enabled"))
    }

    @Test(".luarc.json points lua-language-server at the checkout's annotation folder")
    func luarc() throws {
        let dir = try Self.emptyFolder()
        _ = try BinaryRunner.run(["new", "tea"], in: dir)
        let data = try Data(contentsOf: dir.appendingPathComponent(".luarc.json"))
        let settings = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let library = try #require(settings["workspace.library"] as? [String])
        let types = BinaryRunner.packageRoot.appendingPathComponent("types").resolvingSymlinksInPath().path
        #expect(library == [types])
        #expect(FileManager.default.fileExists(atPath: library[0] + "/cdscript.lua"))
        #expect(settings["runtime.version"] as? String == "Lua 5.4")
    }

    @Test("an existing file is never overwritten: exit 1 naming it, nothing written")
    func neverOverwrites() throws {
        let dir = try Self.emptyFolder()
        try Data("-- mine\n".utf8).write(to: dir.appendingPathComponent("tea.lua"))
        let result = try BinaryRunner.run(["new", "tea"], in: dir)
        #expect(result.status == 1)
        #expect(result.stderr.contains("tea.lua already exists"), "\(result.stderr)")
        #expect(try String(contentsOf: dir.appendingPathComponent("tea.lua"), encoding: .utf8) == "-- mine\n")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("tests/tea_spec.lua").path))

        let dir2 = try Self.emptyFolder()
        _ = try BinaryRunner.run(["new", "tea"], in: dir2)
        let again = try BinaryRunner.run(["new", "tea"], in: dir2)
        #expect(again.status == 1)
        // A second script in the same folder keeps the .luarc.json there.
        let luarc = try Data(contentsOf: dir2.appendingPathComponent(".luarc.json"))
        let coffee = try BinaryRunner.run(["new", "coffee"], in: dir2)
        #expect(coffee.status == 0, "\(coffee.stderr)")
        #expect(coffee.stdout.contains("kept the existing .luarc.json"))
        #expect(try Data(contentsOf: dir2.appendingPathComponent(".luarc.json")) == luarc)
        let test = try BinaryRunner.run(["test"], in: dir2)
        #expect(test.lines.last == "4 passed, 0 failed")
    }

    @Test("a name that is no plain file name is bad usage", arguments: ["../up", "a b", "-x", ""])
    func badName(name: String) throws {
        let dir = try Self.emptyFolder()
        let result = try BinaryRunner.run(["new", "--", name], in: dir)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }
}
