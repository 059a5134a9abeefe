import Foundation
import Testing

/// scripts/install into a temporary prefix. The binary under test is installed
/// through CDSCRIPT_INSTALL_BIN, so the suite does not make a second release build;
/// everything else (man page generation, completions, annotation file) is the real script.
@Suite("scripts/install puts the binary, man page, completions and annotations under PREFIX")
struct InstallTests {
    @Test("install into a temporary prefix; man -l renders the page; the installed binary finds its annotations")
    func install() throws {
        let prefix = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-prefix-\(UUID().uuidString)")
        let process = Process()
        process.executableURL = BinaryRunner.packageRoot.appendingPathComponent("scripts/install")
        process.arguments = [prefix.path]
        process.environment = ProcessInfo.processInfo.environment.merging(["CDSCRIPT_INSTALL_BIN": BinaryRunner.binary.path]) { $1 }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let log = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(log)")

        let files = [
            "bin/cdscript", "share/man/man1/cdscript.1", "share/bash-completion/completions/cdscript",
            "share/zsh/site-functions/_cdscript", "share/fish/vendor_completions.d/cdscript.fish", "share/cdscript/cdscript.lua",
        ]
        for file in files {
            #expect(FileManager.default.fileExists(atPath: prefix.appendingPathComponent(file).path), "\(file)")
        }
        #expect(FileManager.default.isExecutableFile(atPath: prefix.appendingPathComponent("bin/cdscript").path))
        // cdscript-lua beside it, an executable of its own (the one built beside the binary, not a link to
        // cdscript): the plain interpreter, and the arg[-1] `cdscript test` gives specs.
        let plainLua = prefix.appendingPathComponent("bin/cdscript-lua")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: plainLua.path)) == nil)
        #expect(FileManager.default.contentsEqual(atPath: plainLua.path, andPath: PlainLuaInterpreterTests.executable.path))
        let plain = try BinaryRunner.run(["-e", "print(_VERSION, countdown)"], executable: plainLua)
        #expect(plain.status == 0 && plain.stdout == "Lua 5.4\tnil\n", "\(plain.stderr)")

        // The completions installed are the ones generated from the binary (none is written by hand).
        let generated = try CompletionTests.generated.get()
        let installedCompletions = [
            ("share/bash-completion/completions/cdscript", "cdscript.bash"), ("share/zsh/site-functions/_cdscript", "_cdscript"),
            ("share/fish/vendor_completions.d/cdscript.fish", "cdscript.fish"),
        ]
        for (installed, name) in installedCompletions {
            let text = try String(contentsOf: prefix.appendingPathComponent(installed), encoding: .utf8)
            #expect(text == (try String(contentsOf: generated.appendingPathComponent(name), encoding: .utf8)), "\(installed)")
            #expect(text.contains("---completion"), "\(installed) calls the binary for ids")
        }

        // man -l renders the generated page: name, synopsis, the commands.
        let man = Process()
        man.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        man.arguments = ["man", "-l", prefix.appendingPathComponent("share/man/man1/cdscript.1").path]
        man.environment = ProcessInfo.processInfo.environment.merging(["MANPAGER": "cat", "MANWIDTH": "100"]) { $1 }
        let page = Pipe()
        man.standardOutput = page
        man.standardError = FileHandle.nullDevice
        try man.run()
        let text = String(decoding: page.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        man.waitUntilExit()
        #expect(man.terminationStatus == 0)
        for part in ["NAME", "SYNOPSIS", "cdscript", "timer", "--eject"] { #expect(text.contains(part), "\(part) in\n\(text)") }

        // The installed binary: --version, and `new` points .luarc.json at PREFIX/share/cdscript.
        let installed = prefix.appendingPathComponent("bin/cdscript")
        let version = try BinaryRunner.run(["--version"], executable: installed)
        #expect(version.stdout.hasPrefix("cdscript "))
        let project = prefix.appendingPathComponent("project")
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        let new = try BinaryRunner.run(["new", "tea"], in: project, executable: installed)
        #expect(new.status == 0, "\(new.stderr)")
        try "it('sees the installed interpreter', function() local f = io.open('interpreter', 'w') f:write(arg[-1]) f:close() end)\n"
            .write(to: project.appendingPathComponent("arg_spec.lua"), atomically: true, encoding: .utf8)
        let specs = try BinaryRunner.run(["test", "arg_spec.lua"], in: project, executable: installed)
        #expect(specs.status == 0, "\(specs.stdout)\(specs.stderr)")
        let besideInstalled = prefix.resolvingSymlinksInPath().appendingPathComponent("bin/cdscript-lua").path
        #expect(try String(contentsOf: project.appendingPathComponent("interpreter"), encoding: .utf8) == besideInstalled)
        let settings = try JSONSerialization.jsonObject(with: Data(contentsOf: project.appendingPathComponent(".luarc.json"))) as? [String: Any]
        #expect(settings?["workspace.library"] as? [String] == [prefix.appendingPathComponent("share/cdscript").resolvingSymlinksInPath().path])
    }
}
