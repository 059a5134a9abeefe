import Foundation
import Testing

/// The same script under Debian's `lua5.4` and under `cdscript run`, side by side:
/// outside `--sandbox`, scripts get Lua 5.4 as `lua5.4` gives it.
@Suite("Standard Lua: cdscript run against lua5.4, side by side")
struct StandardLuaTests {
    struct Outputs {
        let lua: BinaryRunner.Result
        let cdscript: BinaryRunner.Result
    }

    static let lua = "/usr/bin/lua5.4"

    /// Writes `source` to a file in a fresh folder and runs it with both.
    func sideBySide(_ source: String, options: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) throws -> Outputs {
        let path = try BinaryRunner.script(source, name: "side.lua")
        let lua = try Self.runLua([path])
        let cdscript = try BinaryRunner.run(["run"] + options + [path])
        return Outputs(lua: lua, cdscript: cdscript)
    }

    static func runLua(_ arguments: [String]) throws -> BinaryRunner.Result {
        try BinaryRunner.run(arguments, executable: URL(fileURLWithPath: lua))
    }

    @Test("load, loadfile, dofile and string.rep give Lua's own argument errors and messages")
    func messages() throws {
        let out = try sideBySide("""
            print(pcall(load))
            print(pcall(load, 42))
            print(pcall(load, "return 1", {}))
            print(pcall(load, function() return {} end))
            print(load("x =", "=chunk"))
            print(pcall(loadfile, {}))
            print(pcall(loadfile, "x", {}))
            print(loadfile("/nonexistent/file.lua"))
            print(pcall(dofile, "/nonexistent/file.lua"))
            print(pcall(dofile, {}))
            print(pcall(string.rep))
            print(pcall(string.rep, "x"))
            print(pcall(string.rep, "x", "abc"))
            print(pcall(string.rep, "x", 1.5))
            print(pcall(string.rep, "x", 1e100))
            print(pcall(string.rep, {}, 2))
            print(pcall(string.rep, "x", 2, {}))
            print(pcall(("x").rep, "x", 3e9))
            print(string.rep("ab", 3, ","), string.rep("ab", "3"), string.rep(12, 2), string.rep("x", 0), string.rep("x", -1))
            print(load("return ...", "=c", "t", {})(1, 2))
            print(pcall(load("return x", "=c", "t", nil)))
            print(load("return x", "=c", "bt", { x = 7 })())
            """)
        #expect(out.cdscript.status == 0, "\(out.cdscript.stderr)")
        #expect(out.cdscript.stdout == out.lua.stdout)
        #expect(out.cdscript.stdout.contains("bad argument #1 to 'load' (function expected, got no value)"))
    }

    @Test("they are C functions: what = \"C\", no upvalues, nothing in line hooks or tracebacks")
    func cFunctions() throws {
        let out = try sideBySide("""
            for _, name in ipairs({ "load", "loadfile", "dofile", "require" }) do
              local f = _G[name]
              print(name, debug.getinfo(f).what, debug.getinfo(f, "S").short_src, type((select(2, debug.getupvalue(f, 1)))))
            end
            print("rep", debug.getinfo(string.rep).what, debug.getupvalue(string.rep, 1))
            print("searcher", #package.searchers, debug.getinfo(package.searchers[2]).what,
              select(2, debug.getupvalue(package.searchers[2], 1)) == package)
            local seen = {}
            debug.sethook(function(event, line) seen[#seen + 1] = debug.getinfo(2, "S").short_src .. ":" .. line end, "l")
            local f = load("return 1")
            local s = string.rep("ab", 2)
            local ok = pcall(loadfile, {})
            debug.sethook()
            print(table.concat(seen, " "))
            print(select(2, xpcall(load, debug.traceback)):match("^[^\\n]*\\n[^\\n]*\\n[^\\n]*"))
            """)
        #expect(out.cdscript.status == 0, "\(out.cdscript.stderr)")
        #expect(out.cdscript.stdout == out.lua.stdout)
        #expect(out.cdscript.stdout.contains("load\tC\t[C]\tnil\n"))
        #expect(out.cdscript.stdout.contains("bad argument #1 to 'load' (function expected, got no value)\nstack traceback:\n\t[C]: in function 'load'"))
        #expect(out.cdscript.stdout.contains("searcher\t4\tC\ttrue"))
    }

    @Test("the mode argument is honoured, and bytecode loads outside --sandbox as lua5.4 loads it")
    func modesAndBytecode() throws {
        let out = try sideBySide("""
            local bytes = string.dump(function(a) return (math.tointeger(a) or 0) + 42 end)
            print(load("return 1", "n", "b"))
            print(load(bytes, "n", "t"))
            print(load(bytes, "n", "b")(1), load(bytes)(), load(bytes, "n", "bt")(2))
            local dir = arg[0]:match("^(.*)/")
            local f = io.open(dir .. "/compiled.lua", "wb") f:write(bytes) f:close()
            local t = io.open(dir .. "/text.lua", "w") t:write("#!/usr/bin/env lua\\nreturn 'text', ...") t:close()
            print(loadfile(dir .. "/compiled.lua")(), dofile(dir .. "/compiled.lua"))
            print(select(2, loadfile(dir .. "/compiled.lua", "t")))
            print(select(2, loadfile(dir .. "/text.lua", "b")))
            print(loadfile(dir .. "/text.lua", "t", {})(7))
            package.path = dir .. "/?.lua"
            print(require("compiled"))
            """)
        #expect(out.cdscript.status == 0, "\(out.cdscript.stderr)")
        #expect(out.cdscript.stdout == out.lua.stdout)
        #expect(out.cdscript.stdout.contains("attempt to load a text chunk (mode is 'b')"))
    }

    @Test("loadfile and dofile skip a UTF-8 BOM and a first # line as lua5.4 does (and keep a broken BOM)")
    func bomAndShebang() throws {
        let out = try sideBySide("""
            local dir = arg[0]:match("^(.*)/")
            local function put(name, bytes) local f = io.open(dir .. "/" .. name, "wb") f:write(bytes) f:close() return dir .. "/" .. name end
            print(loadfile(put("bom.lua", "\\xef\\xbb\\xbfreturn 'bom'"))())
            print(select(2, loadfile(put("partial.lua", "\\xef\\xbbreturn 'partial'"))))
            print(dofile(put("both.lua", "\\xef\\xbb\\xbf#!/usr/bin/env lua\\nreturn 'both', debug.getinfo(1, 'l').currentline")))
            """)
        #expect(out.cdscript.status == 0, "\(out.cdscript.stderr)")
        #expect(out.cdscript.stdout == out.lua.stdout)
        #expect(out.cdscript.stdout.hasPrefix("bom\n"))
    }

    @Test("under --sandbox bytecode is refused with Lua's message for mode \"t\", whatever the mode")
    func sandboxRefusesBytecode() throws {
        let source = """
            local bytes = string.dump(function() return 1 end)
            print(load(bytes, "n", "t"))
            """
        let reference = try sideBySide(source)
        let message = reference.lua.stdout
        #expect(message == "nil\tattempt to load a binary chunk (mode is 't')\n")
        let out = try sideBySide("""
            local bytes = string.dump(function() return 1 end)
            print(load(bytes))
            print(load(bytes, "n", "b"))
            print(load(bytes, "n", "bt"))
            local i = 0
            print(load(function() i = i + 1 if i == 1 then return bytes end end, "n", "b"))
            """, options: ["--sandbox"])
        #expect(out.cdscript.status == 0, "\(out.cdscript.stderr)")
        #expect(out.cdscript.stdout == String(repeating: message, count: 4))
    }

    @Test("warn as lua.c has it: off until @on, 'Lua warning: ' on stderr, errors in __gc as warnings")
    func warnings() throws {
        let out = try sideBySide("""
            warn("not shown")
            warn("@on")
            warn("one ", "line")
            warn("@off")
            warn("hidden")
            warn("@on")
            setmetatable({}, { __gc = function() error("boom") end })
            collectgarbage()
            print(pcall(warn), pcall(warn, "a", {}))
            """)
        #expect(out.cdscript.status == 0, "\(out.cdscript.stderr)")
        #expect(out.lua.stderr.contains("Lua warning: one line\n"))
        #expect(out.cdscript.stderr == out.lua.stderr)
        #expect(out.cdscript.stdout == out.lua.stdout)
    }

    @Test("require's not-found message: one line per place tried, no blank lines; package.path = {} as Lua says")
    func requireMessages() throws {
        let out = try sideBySide("""
            print(select(2, pcall(require, "no.such.module")))
            package.path = {}
            print(select(2, pcall(require, "other")))
            print(#package.searchers)
            """)
        #expect(out.cdscript.status == 0, "\(out.cdscript.stderr)")
        let lines = out.cdscript.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(!lines.dropLast().contains(""), "\(out.cdscript.stdout)")
        #expect(lines.dropFirst().allSatisfy { $0.isEmpty || $0.hasPrefix("\tno ") || $0.hasPrefix("'package.path'") || $0 == "4" }, "\(lines)")
        // The same as lua5.4's; the plugin folders that exist (none, unless the
        // user's configuration has one) are named after Lua's own lines.
        let pluginAt = lines.firstIndex { $0.contains("/plugins/no/such/module") }
        let cpathAt = lines.firstIndex { $0.contains(".so'") }
        #expect(pluginAt == nil || (cpathAt != nil && pluginAt! > cpathAt!), "\(lines)")
        let withoutPlugins = lines.filter { !$0.contains("/plugins/no/such/module") }.joined(separator: "\n")
        #expect(withoutPlugins == out.lua.stdout)
    }

    @Test("string.rep's cap holds for every argument form, with Lua's message and the limit")
    func repCap() throws {
        let out = try sideBySide("""
            local function try(...)
              local ok, r = pcall(...)
              print(ok and ("ok " .. #r) or r)
            end
            try(string.rep, "x", 100000000)
            try(string.rep, "x", "100000000")
            try(string.rep, "x", 1e8)
            try(string.rep, "x", 50000000, "yy")
            try(string.rep, 12345678, 10000000)
            try(("x").rep, "xx", 2^25 + 1)
            try(string.rep, "x", 64 * 1024 * 1024)
            try(string.rep, "xx", 2^25)
            """)
        #expect(out.cdscript.status == 0, "\(out.cdscript.stderr)")
        let lines = out.cdscript.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 8)
        for line in lines.prefix(6) {
            #expect(line.hasPrefix("resulting string too large (") && line.hasSuffix(" bytes; cdscript's string.rep makes at most 67108864)"), "\(line)")
        }
        #expect(lines.count == 8 && lines[5].hasPrefix("resulting string too large (67108866 bytes"))
        #expect(lines.suffix(2) == ["ok 67108864", "ok 67108864"])
        // lua5.4 builds them all.
        #expect(out.lua.stdout.split(separator: "\n").allSatisfy { $0.hasPrefix("ok ") }, "\(out.lua.stdout)")
    }
}
