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
            "bin/cdscript", "share/man/man1/cdscript.1", "share/man/man7/cdscript-api.7", "share/bash-completion/completions/cdscript",
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
        let (status, text) = try Self.render(prefix.appendingPathComponent("share/man/man1/cdscript.1"))
        #expect(status == 0)
        for part in ["NAME", "SYNOPSIS", "cdscript", "timer", "--eject"] { #expect(text.contains(part), "\(part) in\n\(text)") }

        // The Lua API's page, made from docs/lua-api.md and docs/view.md: every section of
        // both pages is in it, with no Markdown left over.
        let (apiStatus, api) = try Self.render(prefix.appendingPathComponent("share/man/man7/cdscript-api.7"))
        #expect(apiStatus == 0)
        #expect(api.contains("cdscript-api - The Lua API of cdscript scripts"), "\(api)")
        let flat = api.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for page in ["docs/lua-api.md", "docs/view.md"] {
            let markdown = try String(contentsOf: BinaryRunner.packageRoot.appendingPathComponent(page), encoding: .utf8)
            let lines = markdown.components(separatedBy: "\n")
            for line in lines where line.hasPrefix("## ") {
                let heading = line.dropFirst(3).replacingOccurrences(of: "`", with: "")
                #expect(api.contains(heading), "the section '\(heading)' of \(page) is not in the man page")
            }
            // Every row of every table (a call, an option, a field) is there, by its first cell.
            for (index, line) in lines.enumerated() where line.hasPrefix("| ") && !line.hasPrefix("| ---") {
                if index + 1 < lines.count, lines[index + 1].hasPrefix("| ---") { continue }  // a header row
                let cell = line.split(separator: "|").first.map { $0.replacingOccurrences(of: "`", with: "") } ?? ""
                let words = cell.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                #expect(flat.contains(words), "the row '\(words)' of \(page) is not in the man page")
            }
        }
        for part in ["countdown.start", "on_end_action", "view.label", "countdown.format(3725,", "SEE ALSO"] {
            #expect(api.contains(part), "\(part) in\n\(api)")
        }
        for leftover in ["```", "| --- |", "**", "](", "\\f"] { #expect(!api.contains(leftover), "\(leftover) left in the man page") }

        // The systemd user unit runs the installed binary's serve; nothing enabled it.
        let unit = try String(contentsOf: prefix.appendingPathComponent("share/systemd/user/cdscript.service"), encoding: .utf8)
        #expect(unit.contains("ExecStart=\(prefix.path)/bin/cdscript serve\n") && unit.contains("ExecReload=/bin/kill -HUP $MAINPID"), "\(unit)")
        #expect(unit.contains("KillMode=mixed") && unit.contains("WantedBy=default.target"), "\(unit)")
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

    /// `man -l PAGE` as text (no pager, 100 columns): its exit status and what it shows.
    static func render(_ page: URL) throws -> (Int32, String) {
        let man = Process()
        man.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        man.arguments = ["man", "-l", page.path]
        // UTF-8 output whatever the test's locale, so `→` in a heading stays `→`.
        man.environment = ProcessInfo.processInfo.environment.merging(["MANPAGER": "cat", "MANWIDTH": "100", "LC_ALL": "C.UTF-8"]) { $1 }
        let out = Pipe()
        man.standardOutput = out
        man.standardError = FileHandle.nullDevice
        try man.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        man.waitUntilExit()
        return (man.terminationStatus, text)
    }
}
