import CountdownCore
import Foundation
import LuaHost
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A script under `--sandbox` tries every way out it can think of. Each attempt
/// prints what it got; none may read, probe or write outside the script's folder
/// and the plugin folders, run a command, reach a raw loader or load bytecode.
@Suite("--sandbox: escape attempts")
struct SandboxEscapeTests {
    /// A script folder `dir` (holding `main.lua`), a plugin folder `plugins`, and
    /// a folder outside both, holding `secret.lua` (which returns "SECRET").
    struct Scene {
        let dir: String
        let plugins: String
        let outside: String
        let bed: HostBed

        init() throws {
            dir = try temporaryFolder()
            plugins = try temporaryFolder()
            outside = try temporaryFolder()
            try write("return 'SECRET'", to: outside + "/secret.lua")
            try write("return { setup = function() return 'plugin ok' end }", to: plugins + "/good.lua")
            bed = HostBed(limits: ScriptLimits(sandbox: true), pluginPath: [plugins])
        }

        /// Runs `source` as the script `dir/main.lua`; its printed lines.
        func run(_ source: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
            try write(source, to: dir + "/main.lua")
            if let failure = bed.runFile(dir + "/main.lua") {
                Issue.record("script failed: \(failure.message)", sourceLocation: sourceLocation)
            }
            return bed.lines
        }

        var outsideName: String { (outside as NSString).lastPathComponent }
    }

    @Test("a replaced string.gsub cannot steer require to a file outside the allowed folders, with or without a NUL")
    func gsubSteering() throws {
        let scene = try Scene()
        let lines = try scene.run("""
            string.gsub = function() return "../\(scene.outsideName)/secret", 1 end
            getmetatable("").__index = setmetatable({}, { __index = function() return string.gsub end })
            print(pcall(require, "whatever"))
            string.gsub = function() return "\(scene.outside)/secret.lua\\0", 1 end
            print(pcall(require, "whatever2"))
            print(pcall(require, "../\(scene.outsideName)/secret"))
            print(pcall(require, "\(scene.outside)/secret"))
            print(pcall(require, "x\\0/../../\(scene.outsideName)/secret"))
            print(use("good"))
            """)
        #expect(lines.count == 6, "\(lines)")
        for line in lines.prefix(5) {
            #expect(line.hasPrefix("false") && line.contains("not found") && !line.contains("SECRET"), "\(line)")
        }
        #expect(lines.last == "plugin ok")
    }

    @Test("loadfile, dofile and require read only inside the script's folder and the plugin folders")
    func readingOutside() throws {
        let scene = try Scene()
        try write("return 'inside'", to: scene.dir + "/lib/helper.lua")
        // A symbolic link inside the folder that leads out of it.
        try FileManager.default.createSymbolicLink(atPath: scene.dir + "/link.lua", withDestinationPath: scene.outside + "/secret.lua")
        // One whose target does not exist: whether it exists is not the script's business.
        try FileManager.default.createSymbolicLink(atPath: scene.dir + "/dangling.lua", withDestinationPath: scene.outside + "/missing.lua")
        let lines = try scene.run("""
            print(dofile("\(scene.dir)/lib/helper.lua"), loadfile("\(scene.dir)/lib/helper.lua")(), loadfile("\(scene.plugins)/good.lua") ~= nil)
            print(loadfile("\(scene.outside)/secret.lua"))
            print(pcall(dofile, "\(scene.dir)/../\(scene.outsideName)/secret.lua"))
            print(loadfile("\(scene.dir)/link.lua"))
            print(loadfile("/etc/passwd"))
            print(loadfile("/etc/no-such-file"))
            print(loadfile("\(scene.dir)/no-such-file.lua"))
            print(loadfile("\(scene.dir)/dangling.lua"))
            print(pcall(dofile))
            print(loadfile())
            package.path = "\(scene.outside)/?.lua;/etc/?"
            print(pcall(require, "secret"))
            print(pcall(require, "passwd"))
            """)
        #expect(lines.count == 12, "\(lines)")
        #expect(lines[0] == "inside inside true")
        let refused = "outside the script's folder and the plugin folders (--sandbox)"
        #expect(lines[1] == "nil cannot open \(scene.outside)/secret.lua: \(refused)")
        #expect(lines[2].hasPrefix("false cannot open ") && lines[2].hasSuffix(refused))
        #expect(lines[3] == "nil cannot open \(scene.dir)/link.lua: \(refused)")
        // Existing or not, a file outside gets the same answer: nothing is learnt.
        #expect(lines[4] == "nil cannot open /etc/passwd: \(refused)")
        #expect(lines[5] == "nil cannot open /etc/no-such-file: \(refused)")
        #expect(lines[6] == "nil cannot open \(scene.dir)/no-such-file.lua: No such file or directory")
        #expect(lines[7] == "nil cannot open \(scene.dir)/dangling.lua: \(refused)")
        #expect(lines[8] == "false cannot read stdin: refused by --sandbox")
        #expect(lines[9] == "nil cannot read stdin: refused by --sandbox")
        #expect(lines[10].hasPrefix("false module 'secret' not found:") && lines[10].contains("no file '\(scene.outside)/secret.lua'"))
        #expect(lines[11].hasPrefix("false module 'passwd' not found:") && lines[11].contains("no file '/etc/passwd'"))
    }

    @Test("package.searchpath cannot probe the file system outside the allowed folders")
    func searchpathProbe() throws {
        let scene = try Scene()
        let lines = try scene.run("""
            print(package.searchpath("passwd", "/etc/?"))
            print(package.searchpath("nothing-here", "/etc/?"))
            print(package.searchpath("secret", "\(scene.outside)/?.lua"))
            print(package.searchpath("main", "\(scene.dir)/?.lua"))
            print(package.searchpath("good", "\(scene.plugins)/?.lua"))
            """)
        #expect(lines == [
            "nil no file '/etc/passwd'",
            "nil no file '/etc/nothing-here'",
            "nil no file '\(scene.outside)/secret.lua'",
            "\(scene.dir)/main.lua",
            "\(scene.plugins)/good.lua",
        ])
    }

    @Test("a folder named with NFC 'café' does not let a script read its NFD-named sibling: paths compare as bytes")
    func unicodeEquivalentSibling() throws {
        let base = try temporaryFolder()
        let nfc = base + "/caf\u{E9}", nfd = base + "/cafe\u{301}"
        #expect(mkdir(nfc, 0o755) == 0)
        #expect(mkdir(nfd, 0o755) == 0)
        #expect(nfc.utf8.count != nfd.utf8.count)
        try write("return 'SECRET'", to: nfd + "/secret.lua")
        try write("return 'own'", to: nfc + "/own.lua")
        try write("print(loadfile('\(nfd)/secret.lua'))\nprint(pcall(dofile, '\(nfd)/secret.lua'))\nprint(dofile('\(nfc)/own.lua'))", to: nfc + "/main.lua")
        let bed = HostBed(limits: ScriptLimits(sandbox: true))
        if let failure = bed.runFile(nfc + "/main.lua") { Issue.record("\(failure.message)") }
        #expect(bed.lines.count == 3)
        for line in bed.lines.prefix(2) { #expect(line.contains("(--sandbox)") && !line.contains("SECRET"), "\(line)") }
        #expect(bed.lines.last == "own")
    }

    @Test("the log plugin follows no symbolic link out of the folder (dangling or not) and no hard link")
    func logSymlinks() throws {
        let scene = try Scene()
        let target = scene.outside + "/planted.sh"
        try FileManager.default.createSymbolicLink(atPath: scene.dir + "/dangling.jsonl", withDestinationPath: target)
        try "keep\n".write(toFile: scene.outside + "/existing.txt", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: scene.dir + "/existing.jsonl", withDestinationPath: scene.outside + "/existing.txt")
        #expect(link(scene.outside + "/existing.txt", scene.dir + "/hard.jsonl") == 0)
        _ = try scene.run("""
            use("log", { path = "\(scene.dir)/dangling.jsonl" })
            use("log", { path = "\(scene.dir)/existing.jsonl" })
            use("log", { path = "\(scene.dir)/hard.jsonl" })
            use("log", { path = "\(scene.outside)/direct.jsonl" })
            use("log", { path = "\(scene.dir)/../\(scene.outsideName)/dotdot.jsonl" })
            use("log", { path = "\(scene.dir)/ok.jsonl" })
            countdown.start{ id = "$(touch /tmp/pwned)", seconds = 1 }
            """)
        scene.bed.advance(to: 2)
        #expect(!FileManager.default.fileExists(atPath: target))
        #expect(try String(contentsOfFile: scene.outside + "/existing.txt", encoding: .utf8) == "keep\n")
        #expect(!FileManager.default.fileExists(atPath: scene.outside + "/direct.jsonl"))
        #expect(!FileManager.default.fileExists(atPath: scene.outside + "/dotdot.jsonl"))
        #expect(try String(contentsOfFile: scene.dir + "/ok.jsonl", encoding: .utf8).contains("\"event\":\"done\""))
        let notices = scene.bed.reports.notices
        #expect(notices.filter { $0.contains("is outside the script's folder (--sandbox)") }.count == 5, "\(notices)")
    }

    @Test("os.getenv answers only locale, time zone and terminal variables")
    func environment() throws {
        setenv("CDSCRIPT_SECRET_TOKEN", "hunter2", 1)
        setenv("COLORTERM", "truecolor", 1)
        let scene = try Scene()
        let lines = try scene.run("""
            print(os.getenv("CDSCRIPT_SECRET_TOKEN"), os.getenv("HOME"), os.getenv("PATH"), os.getenv("COLORTERM"))
            print(pcall(os.getenv))
            """)
        #expect(lines == ["nil nil nil truecolor", "false bad argument #1 to 'os.getenv' (string expected, got no value)"])
        let open = HostBed(limits: .none)
        open.mustRun("print(os.getenv('CDSCRIPT_SECRET_TOKEN'))")
        #expect(open.lines == ["hunter2"])
    }

    @Test("the routes that already held still hold")
    func knownRoutes() throws {
        let scene = try Scene()
        let lines = try scene.run("""
            print(io, debug, os.execute, os.exit, os.remove, os.rename, os.tmpname, package.loadlib)
            print(#package.searchers, package.cpath)
            print(select(2, pcall(require, "io")), pcall(require, "debug"))
            package.cpath = "/usr/lib/x86_64-linux-gnu/lua/5.4/?.so;/usr/lib/x86_64-linux-gnu/?.so"
            print(pcall(require, "lpeg"), pcall(require, "liblua5.4"))
            print(load(string.dump(function() return 1 end)))
            print(pcall(string.rep, "x", 1e9))
            print(load("return 1", "=x", "t", { })())
            print(rawget(_G, "H"), rawget(_G, "raw_load"), getmetatable("").__metatable)
            print(pcall(use, "exec", { command = { "touch", "/tmp/cdscript-sandbox-exec" } }))
            countdown.start{ id = "x", seconds = 0.5 }
            print(collectgarbage("count") > 0, os.time() > 0, type(os.date()), os.clock() >= 0)
            """)
        #expect(lines.count == 10, "\(lines)")
        #expect(lines[0] == "nil nil nil nil nil nil nil nil")
        #expect(lines[1] == "2 ")
        #expect(lines[2].hasPrefix("module 'io' not found") && lines[2].contains("false module 'debug' not found"))
        #expect(lines[3].hasPrefix("false") && lines[3].contains("module 'liblua5.4' not found"))
        #expect(lines[4] == "nil attempt to load a binary chunk (mode is 't')")
        #expect(lines[5].contains("resulting string too large"))
        #expect(lines[6] == "1")
        #expect(lines[7] == "nil nil nil")
        scene.bed.advance(to: 1)
        #expect(!FileManager.default.fileExists(atPath: "/tmp/cdscript-sandbox-exec"))
        #expect(scene.bed.reports.notices.contains { $0.contains("running commands is disabled by --sandbox") }, "\(scene.bed.reports.notices)")
    }

    @Test("more routes that hold: the same functions through other doors")
    func otherDoors() throws {
        let scene = try Scene()
        let lines = try scene.run("""
            print(package.loaded.io, package.loaded.debug, package.loaded.os.execute, package.searchers[3], package.searchers[4])
            print(coroutine.wrap(loadfile)("/etc/passwd"))
            print(select(2, pcall(string.dump, loadfile)))
            package.path = "\(scene.outside)/?.lua"
            print(package.searchers[2]("secret"))
            print(getmetatable("").__index.rep == string.rep, pcall(("x").rep, "x", 1e8))
            print(select("#", os.getenv("HOME")), os.getenv("HOME"))
            local env = setmetatable({}, { __index = _G })
            print(load("return io, debug, loadfile('/etc/passwd')", "=x", "t", env)())
            print(pcall(require, "\(scene.outside)/secret.lua"))
            """)
        #expect(lines.count == 8, "\(lines)")
        let refused = "outside the script's folder and the plugin folders (--sandbox)"
        #expect(lines[0] == "nil nil nil nil nil")
        #expect(lines[1] == "nil cannot open /etc/passwd: \(refused)")
        #expect(lines[2].contains("unable to dump given function"))
        #expect(lines[3] == "no file '\(scene.outside)/secret.lua'\n\tno file '\(scene.plugins)/secret.lua'\n\tno file '\(scene.plugins)/secret/init.lua'", "\(lines[3])")
        #expect(lines[4].hasPrefix("true false ") && lines[4].contains("resulting string too large (100000000 bytes"))
        #expect(lines[5] == "1 nil")
        #expect(lines[6] == "nil nil nil cannot open /etc/passwd: \(refused)")
        #expect(lines[7].hasPrefix("false module '\(scene.outside)/secret.lua' not found") && !lines[7].contains("SECRET"))
    }

    @Test("outside --sandbox no raw loader hides in an upvalue: load and friends have none")
    func noRawLoader() {
        let bed = HostBed(limits: .runDefaults)
        bed.mustRun("""
            local found = {}
            for _, f in ipairs({ load, loadfile, dofile, require, string.rep, package.searchpath, use, countdown.on }) do
              for i = 1, 20 do
                local name, value = debug.getupvalue(f, i)
                if name == nil then break end
                if type(value) == "function" and debug.getinfo(value).what == "C" and value ~= require and value ~= pcall
                   and value ~= type and value ~= error and value ~= tostring and value ~= string.format
                   and value ~= string.sub and value ~= string.gsub then
                  found[#found + 1] = tostring(name)
                end
              end
            end
            print(#found, debug.getupvalue(load, 1), debug.getupvalue(string.rep, 1))
            """)
        #expect(bed.lines == ["0 nil"])
    }
}
