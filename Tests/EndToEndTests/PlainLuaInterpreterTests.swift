import Foundation
import Testing

/// `cdscript-lua` (the executable built beside the binary under test) against the
/// real `lua5.4`, on the same command lines in the same folder (Fixtures/plain_lua):
/// the same stdout, the same stderr once each program's own path is written
/// PROGRAM, the same exit code.
@Suite("cdscript-lua is lua5.4: options, arg, errors, exit codes, stdin")
struct PlainLuaInterpreterTests {
    static let fixtures = BinaryRunner.packageRoot.appendingPathComponent("Tests/EndToEndTests/Fixtures/plain_lua")

    /// `cdscript-lua` in the folder of the binary under test, where `swift build`
    /// and scripts/install put it and where `cdscript test` looks for it.
    static var executable: URL { BinaryRunner.binary.deletingLastPathComponent().appendingPathComponent("cdscript-lua") }

    struct Outcome: Equatable, CustomStringConvertible {
        let status: Int32
        let stdout: String
        let stderr: String
        var description: String { "exit \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }
    }

    static func outcome(_ executable: URL, _ arguments: [String], stdin: String?, environment: [String: String]) throws -> Outcome {
        let result = try BinaryRunner.run(arguments, in: fixtures, environment: environment, executable: executable,
                                          stdinPath: stdin.map { fixtures.appendingPathComponent($0).path })
        return Outcome(status: result.status, stdout: result.stdout,
                       stderr: result.stderr.replacingOccurrences(of: executable.path, with: "PROGRAM"))
    }

    /// Both programs on `arguments`; stdin is a fixture file (or nothing); LUA_INIT and
    /// LUA_INIT_5_4 are empty unless `environment` sets them.
    @discardableResult
    static func expectSame(_ arguments: [String], stdin: String? = nil, environment: [String: String] = [:],
                           sourceLocation: SourceLocation = #_sourceLocation) throws -> Outcome {
        let environment = ["LUA_INIT": "", "LUA_INIT_5_4": ""].merging(environment) { $1 }
        let lua = try outcome(URL(fileURLWithPath: StandardLuaTests.lua), arguments, stdin: stdin, environment: environment)
        let plain = try outcome(executable, arguments, stdin: stdin, environment: environment)
        #expect(plain == lua, "\(arguments)\ncdscript-lua: \(plain)\nlua5.4: \(lua)", sourceLocation: sourceLocation)
        return plain
    }

    @Test("a script with arguments: arg at every index, ..., stdin, the collector lua5.4 runs scripts with")
    func scriptWithArguments() throws {
        let plain = try Self.expectSame(["args.lua", "a", "b c", "--flag", "-e"], stdin: "stdin_chunk.lua")
        #expect(plain.status == 0 && plain.stdout.contains("INTERPRETER 0=args.lua 1=a 2=b c 3=--flag 4=-e\n"), "\(plain)")
        #expect(plain.stdout.contains("collector\tgenerational\n"))
    }

    @Test("-e, -l MOD, -l G=MOD and -W run in order before the script, and stay in arg at negative indices")
    func optionsInOrder() throws {
        try Self.expectSame(["-e", "x = 1", "-lgreeter", "-l", "s=string", "-W", "-e", "warn('w', tostring(x))", "args.lua", "z"])
        // No script: arg[0] is the program, the options from 1.
        let plain = try Self.expectSame(["-l", "greeter", "-l", "s=string", "-e", "print(greeter.hello(s.upper('lua')), arg[1], arg[-1])"])
        #expect(plain.stdout == "hello, LUA\t-l\tnil\n", "\(plain)")
    }

    @Test("os.exit's codes, true and false included, after what the script wrote")
    func exitCodes() throws {
        for (how, status) in [("0", Int32(0)), ("3", 3), ("true", 0), ("false", 1), ("255", 255)] {
            let plain = try Self.expectSame(["args.lua", "exit", how])
            #expect(plain.status == status && plain.stdout.hasSuffix("before exit"), "\(how): \(plain)")
        }
    }

    @Test("an uncaught error: PROGRAM: message and a traceback on stderr, exit 1; so are error objects, syntax errors and a missing file")
    func errors() throws {
        let deep = try Self.expectSame(["error.lua"])
        #expect(deep.status == 1 && deep.stdout == "started\n")
        #expect(deep.stderr.hasPrefix("PROGRAM: error.lua:2: deep down\nstack traceback:\n\t[C]: in function 'error'\n"), "\(deep)")
        for statement in ["error({})", "error()", "error(42)", "error(setmetatable({}, {__tostring = function() return 'shown' end}))",
                          "error('at level 2', 2)", "local t = nil; t.x = 1"] {
            let result = try Self.expectSame(["-e", statement])
            #expect(result.status == 1, "\(statement)")
        }
        for arguments in [["syntax_error.lua"], ["missing.lua"], ["-e", "x ="], ["-l", "no_such_module"], ["-e", "arg = nil", "args.lua"]] {
            let result = try Self.expectSame(arguments)
            #expect(result.status == 1 && result.stderr.hasPrefix("PROGRAM: "), "\(arguments): \(result)")
        }
    }

    @Test("a bad option or one without its value: lua5.4's message and usage, exit 1")
    func badOptions() throws {
        for arguments in [["-x"], ["-e"], ["-l"], ["-e", "-v"], ["--x"], ["-ve", "print(1)"], ["-Ex"]] {
            let result = try Self.expectSame(arguments)
            #expect(result.status == 1 && result.stderr.contains("usage: PROGRAM [options] [script [args]]"), "\(arguments): \(result)")
        }
    }

    @Test("- runs stdin with the arguments after it; -- ends the options; no script and no -e runs stdin")
    func standardInput() throws {
        #expect(try Self.expectSame(["-", "a", "b"], stdin: "stdin_chunk.lua").stdout == "chunk on stdin\ta\tb\n")
        #expect(try Self.expectSame(["-e", "print(1)", "--", "args.lua", "-e"], stdin: "stdin_chunk.lua").status == 0)
        #expect(try Self.expectSame([], stdin: "stdin_chunk.lua").stdout == "chunk on stdin\n")
        #expect(try Self.expectSame(["--"], stdin: "stdin_chunk.lua").stdout == "chunk on stdin\n")
        #expect(try Self.expectSame(["-", "x"], stdin: "syntax_error.lua").status == 1)
    }

    @Test("-v prints Lua's version line; LUA_INIT_5_4 over LUA_INIT, @FILE, and -E that ignores both and LUA_PATH")
    func versionAndEnvironment() throws {
        #expect(try Self.expectSame(["-v"]).stdout.hasPrefix("Lua 5.4"))
        try Self.expectSame(["-v", "-e", "print(2)"])
        try Self.expectSame(["-e", "print(1)"], environment: ["LUA_INIT": "print('init')"])
        try Self.expectSame(["-e", "print(1)"], environment: ["LUA_INIT": "print('init')", "LUA_INIT_5_4": "print('init 5.4')"])
        try Self.expectSame(["-e", "print(1)"], environment: ["LUA_INIT": "@greeter.lua"])
        try Self.expectSame(["-e", "print(1)"], environment: ["LUA_INIT": "error('in init')"])
        try Self.expectSame(["-e", "print(1)"], environment: ["LUA_INIT": "@missing.lua"])
        try Self.expectSame(["-E", "-e", "print(package.path)"], environment: ["LUA_INIT": "print('init')", "LUA_PATH": "/nowhere/?.lua"])
        try Self.expectSame(["-e", "print(package.path)"], environment: ["LUA_PATH": "/nowhere/?.lua"])
    }

    @Test("only Lua's standard libraries: nothing of cdscript's host")
    func bareState() throws {
        let result = try BinaryRunner.run(["-e", "print(countdown, clock, view, use, expect)"], executable: Self.executable)
        #expect(result.status == 0 && result.stdout == "nil\tnil\tnil\tnil\tnil\n", "\(result.stderr)")
    }

    @Test("an executable of its own, not cdscript under another name: small, and its messages start with the name it was run by")
    func ownExecutable() throws {
        let attributes = try FileManager.default.attributesOfItem(atPath: Self.executable.resolvingSymlinksInPath().path)
        let cdscript = try FileManager.default.attributesOfItem(atPath: BinaryRunner.binary.resolvingSymlinksInPath().path)
        #expect(attributes[.systemFileNumber] as? Int != cdscript[.systemFileNumber] as? Int)
        let size = try #require(attributes[.size] as? Int)
        #expect(size < 2_000_000, "cdscript-lua is \(size) bytes: it links only Lua")
        // Under any name (here a link called lua), as lua5.4 writes its own.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-lua-name-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let renamed = dir.appendingPathComponent("lua")
        try FileManager.default.createSymbolicLink(at: renamed, withDestinationURL: Self.executable)
        let result = try BinaryRunner.run(["error.lua"], in: Self.fixtures, executable: renamed)
        #expect(result.status == 1 && result.stderr.hasPrefix("\(renamed.path): error.lua:2: deep down\n"), "\(result.stderr)")
        let cdscriptRun = try BinaryRunner.run(["error.lua"], in: Self.fixtures)
        #expect(cdscriptRun.status == 2, "cdscript FILE keeps its own exit code for a script error")
    }

    @Test("it loads only Lua and the C library: none of the Swift runtime's libraries (each costs every start)")
    func neededLibraries() throws {
        let readelf = Process()
        readelf.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        readelf.arguments = ["readelf", "--dynamic", Self.executable.path]
        let out = Pipe()
        readelf.standardOutput = out
        try readelf.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        readelf.waitUntilExit()
        let needed = text.split(separator: "\n").filter { $0.contains("(NEEDED)") }
            .compactMap { $0.split(separator: "[").last?.split(separator: "]").first.map(String.init) }
        #expect(readelf.terminationStatus == 0 && needed.contains { $0.hasPrefix("liblua5.4") }, "\(text)")
        let runtime = needed.filter { $0.hasPrefix("libswift") || $0.hasPrefix("libstdc++") || $0.hasPrefix("libFoundation")
            || $0.hasPrefix("libdispatch") || $0.hasPrefix("libBlocksRuntime") }
        #expect(runtime.isEmpty, "\(needed)")
    }

    @Test("-i gives lua5.4's prompt when stdin is not a terminal: version, prompts, lines echoed, values printed, errors, unfinished chunks, _PROMPT, a missing print")
    func prompt() throws {
        let plain = try Self.expectSame(["-i"], stdin: "prompt_input.lua")
        #expect(plain.stdout.contains("> =x\n3\n") && plain.stderr.contains("stdin:1: e"), "\(plain)")
        try Self.expectSame(["-e", "_PROMPT=setmetatable({}, {__tostring = function() return 'P' end}) _PROMPT2 = '..'", "-i"], stdin: "prompt_input.lua")
        try Self.expectSame(["-e", "print = nil", "-i"], stdin: "prompt_input.lua")
        try Self.expectSame(["args.lua", "a", "-i"], stdin: "prompt_input.lua")
    }

    @Test("Lua 5.4.4's own testes/main.lua passes under cdscript-lua as under lua5.4 (-v, -E, -W, -i, stdin, arg), up to its Ctrl-C part",
          .enabled(if: FileManager.default.fileExists(atPath: StandardLuaTestes.mirror), "no copy of Lua's repository at \(StandardLuaTestes.mirror)"))
    func luaTestesMain() throws {
        let plain = try StandardLuaTestes.runMain(executable: Self.executable)
        let lua = try StandardLuaTestes.runMain(executable: URL(fileURLWithPath: StandardLuaTests.lua))
        #expect(lua.status == 0 && lua.stdout.hasSuffix("OK\n"), "lua5.4: \(lua.stdout)\(lua.stderr)")
        #expect(plain.status == 0 && plain.stdout.hasSuffix("OK\n"), "cdscript-lua: \(plain.stdout)\(plain.stderr)")
    }

    /// Two spec files that write `arg[-1]` to a file of their own and run it as teal's specs do.
    static func argSpecs(in project: URL) throws {
        for name in ["first", "second"] {
            try """
            it('runs arg[-1] -e', function()
              local f = assert(io.open('\(name).interpreter', 'w')) f:write(arg[-1]) f:close()
              local ok, how, code = os.execute("'" .. arg[-1] .. "' -e 'os.exit(3)'")
              assert.are.same({ 'exit', 3 }, { how, code })
            end)

            """.write(to: project.appendingPathComponent("\(name)_spec.lua"), atomically: true, encoding: .utf8)
        }
    }

    @Test("cdscript test gives specs arg[-1] = the cdscript-lua beside the binary, with nothing said")
    func argIsTheExecutableBeside() throws {
        let project = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-lua-arg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: project) }
        try Self.argSpecs(in: project)
        let run = try BinaryRunner.run(["test", "."], in: project)
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stdout)\(run.stderr)")
        for name in ["first", "second"] {
            let seen = try String(contentsOf: project.appendingPathComponent("\(name).interpreter"), encoding: .utf8)
            #expect(seen == Self.executable.resolvingSymlinksInPath().path)
        }
    }

    @Test("without cdscript-lua beside the binary, cdscript test says so once on stderr and gives cdscript's own path")
    func argFallsBackToCdscript() throws {
        // The binary alone in a folder of its own, on the build's file system so that a hard link can stand for a copy.
        let alone = BinaryRunner.packageRoot.appendingPathComponent(".build/cdscript-alone-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: alone, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: alone) }
        let binary = alone.appendingPathComponent("cdscript")
        let real = BinaryRunner.binary.resolvingSymlinksInPath()
        if link(real.path, binary.path) != 0 { try FileManager.default.copyItem(at: real, to: binary) }
        let project = alone.appendingPathComponent("project")
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        try Self.argSpecs(in: project)
        // cdscript -e 'os.exit(3)' is no cdscript command line: the specs see a failure, as documented.
        let run = try BinaryRunner.run(["test", "."], in: project, executable: binary)
        let notes = run.stderr.components(separatedBy: "no cdscript-lua beside \(binary.path)").count - 1
        #expect(notes == 1, "\(run.stderr)")
        for name in ["first", "second"] {
            let seen = try String(contentsOf: project.appendingPathComponent("\(name).interpreter"), encoding: .utf8)
            #expect(seen == binary.path)
        }
    }
}

/// Lua 5.4.4's testes/main.lua, from a copy of Lua's repository where there is one.
/// Its Ctrl-C part is left out: it starts a background Lua that can spin for
/// minutes when the shell's timing differs, and lua5.4 itself fails it here.
enum StandardLuaTestes {
    static let mirror = "/work/.mirror/lua+lua/repo"

    static func runMain(executable: URL) throws -> BinaryRunner.Result {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-main-testes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let unpack = Process()
        unpack.executableURL = URL(fileURLWithPath: "/bin/sh")
        unpack.arguments = ["-c", "git -C \"$1\" archive v5.4.4 testes/main.lua | tar -x -C \"$2\"", "sh", mirror, dir.path]
        try unpack.run()
        unpack.waitUntilExit()
        let testes = dir.appendingPathComponent("testes")
        let main = try String(contentsOf: testes.appendingPathComponent("main.lua"), encoding: .utf8)
        let cut = main.components(separatedBy: "print('testing Ctrl C')")[0] + "print(\"OK\")\n"
        try cut.write(to: testes.appendingPathComponent("main_cut.lua"), atomically: true, encoding: .utf8)
        // LUA_INIT as the machine has it: main.lua checks an unset one itself.
        return try BinaryRunner.run(["main_cut.lua"], timeout: 60, in: testes, executable: executable)
    }
}
