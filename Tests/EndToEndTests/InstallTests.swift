import Foundation
import Testing

/// scripts/install into a temporary prefix. The binary under test is installed
/// with --bin, so the suite does not make a second release build;
/// everything else (man page generation, completions, annotation file) is the real script.
@Suite("scripts/install puts the binary, man page, completions and annotations under PREFIX")
struct InstallTests {
    /// Runs scripts/install with `arguments`. Its PATH starts with a folder whose
    /// `dpkg-query`, `apt-get` and `sudo` write their names to `package-calls` and fail,
    /// so a run that installs an existing binary shows whether it asked for packages.
    static func install(_ arguments: [String]) throws -> (status: Int32, log: String, packageCalls: String) {
        let guardDir = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-noapt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: guardDir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: guardDir) }
        let calls = guardDir.appendingPathComponent("package-calls")
        for tool in ["dpkg-query", "apt-get", "sudo"] {
            let path = guardDir.appendingPathComponent(tool)
            try "#!/bin/sh\necho \(tool) >> '\(calls.path)'\nexit 1\n".write(to: path, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path.path)
        }
        let process = Process()
        process.executableURL = BinaryRunner.packageRoot.appendingPathComponent("scripts/install")
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = guardDir.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["CDSCRIPT_INSTALL_BIN"] = nil
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let log = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let called = (try? String(contentsOf: calls, encoding: .utf8)) ?? ""
        return (process.terminationStatus, log, called)
    }

    @Test("--help names PREFIX, --prefix and --bin; an unknown option or a second prefix is bad usage (64); --bin that is not an executable file, 66")
    func usage() throws {
        let help = try Self.install(["--help"])
        #expect(help.status == 0)
        for part in ["usage: scripts/install [PREFIX | --prefix PREFIX] [--bin PATH]", "--prefix PREFIX", "--bin PATH", "~/.local"] {
            #expect(help.log.contains(part), "\(part) in\n\(help.log)")
        }
        #expect(try Self.install(["--frobnicate"]).status == 64)
        #expect(try Self.install(["/tmp/a", "/tmp/b"]).status == 64)
        #expect(try Self.install(["--prefix"]).status == 64)
        let missing = try Self.install(["--bin", "/nonexistent/cdscript", "/tmp/unused-prefix"])
        #expect(missing.status == 66 && missing.log.contains("/nonexistent/cdscript is not an executable file"), "\(missing.log)")
        // The README and the docs show the usage line --help prints.
        for page in ["README.md", "docs/command-line.md"] {
            let text = try String(contentsOf: BinaryRunner.packageRoot.appendingPathComponent(page), encoding: .utf8)
            #expect(text.contains("scripts/install [PREFIX | --prefix PREFIX] [--bin PATH]"), "\(page) shows install's usage")
        }
    }

    @Test("install an existing binary (--bin) into --prefix, asking for no packages; man -l renders both pages without Markdown; the installed binary finds its annotations")
    func install() throws {
        let prefix = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-prefix-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: prefix) }
        let run = try Self.install(["--prefix", prefix.path, "--bin", BinaryRunner.binary.path])
        #expect(run.status == 0, "\(run.log)")
        #expect(run.packageCalls.isEmpty, "installing a built binary asked for packages: \(run.packageCalls)")

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
        // cdscript-serve beside it too (`serve` hands over to it; `run --serve` starts it), as built.
        let server = prefix.appendingPathComponent("bin/cdscript-serve")
        #expect(FileManager.default.isExecutableFile(atPath: server.path))
        #expect(FileManager.default.contentsEqual(atPath: server.path, andPath: BinaryRunner.binary.deletingLastPathComponent().appendingPathComponent("cdscript-serve").path))
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
        // Commands the help texts mark with backticks are set in bold, not shown with backticks.
        #expect(!text.contains("`"), "raw backticks in cdscript(1): \(text.split(separator: "\n").filter { $0.contains("`") }.prefix(3))")

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
        // Links keep their targets: another docs page and its section, a section of this page.
        #expect(flat.contains("(docs/stores.md, \"One end, one action, however many processes follow it\")"), "\(api)")
        #expect(flat.contains("(docs/testing.md)"), "\(api)")
        #expect(flat.contains("(a section of this page)") || flat.contains("(see \""), "\(api)")
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
