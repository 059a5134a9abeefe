import Foundation
import LuaHost
import Testing

@Suite("Scripts that fail: syntax, runtime, binary chunks")
struct ScriptFailureTests {
    @Test("a syntax error is .syntax with name:LINE: in the message")
    func syntaxError() throws {
        let bed = LuaTestbed()
        let failure = try #require(bed.run("local a = 1\nlocal b = = 2\n"))
        #expect(failure.kind == .syntax)
        #expect(failure.message.hasPrefix("test:2:"), "\(failure.message)")
        #expect(failure.description == failure.message)
        #expect(bed.top == 0)
    }

    @Test("a syntax error runs nothing")
    func syntaxRunsNothing() throws {
        let bed = LuaTestbed()
        let failure = try #require(bed.run("countdown.start{seconds = 1}\nprint('x'\n"))
        #expect(failure.kind == .syntax)
        #expect(bed.scheduler.activeCount == 0)
        #expect(bed.lines.isEmpty)
    }

    @Test("the chunk name given to runScript is the one in messages")
    func chunkName() throws {
        let bed = LuaTestbed()
        let failure = try #require(bed.host.runScript(source: Data("x = = 1".utf8), chunkName: "@demo.lua"))
        #expect(failure.kind == .syntax)
        #expect(failure.message.hasPrefix("demo.lua:1:"), "\(failure.message)")
    }

    @Test("a runtime error is .runtime with the line and a traceback; what ran before stays")
    func runtimeError() throws {
        let bed = LuaTestbed()
        let failure = try #require(bed.run("print('before')\ncountdown.start{seconds = 5}\nerror('boom')\nprint('after')"))
        #expect(failure.kind == .runtime)
        #expect(failure.message.hasPrefix("test:3: boom"), "\(failure.message)")
        #expect(failure.message.contains("stack traceback:"))
        #expect(bed.lines == ["before"])
        #expect(bed.scheduler.activeCount == 1)
        #expect(bed.top == 0)
    }

    @Test("a non-string error object at top level is described, not lost")
    func runtimeErrorObject() throws {
        let bed = LuaTestbed()
        let table = try #require(bed.run("error({})"))
        #expect(table.kind == .runtime)
        #expect(table.message.hasPrefix("(error object is a table value)"), "\(table.message)")
        let custom = try #require(bed.run("error(setmetatable({}, {__tostring = function() return 'custom text' end}))"))
        #expect(custom.message.hasPrefix("custom text"), "\(custom.message)")
    }

    @Test("a broken precompiled chunk is a syntax failure that names the chunk")
    func brokenBinaryChunk() throws {
        let bed = LuaTestbed()
        // A chunk that starts with ESC is a binary chunk to Lua's loader.
        let failure = try #require(bed.host.runScript(source: Data([0x1B]) + Data("LuaT".utf8), chunkName: "@bin.lua"))
        #expect(failure.kind == .syntax)
        #expect(failure.message.hasPrefix("bin.lua: bad binary format"), "\(failure.message)")
    }

    @Test("a precompiled main chunk runs outside the sandbox (issue 29: as lua5.4 runs it)")
    func binaryChunkRuns() throws {
        let bed = LuaTestbed()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-bc-\(UUID().uuidString).lua").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        bed.mustRun(#"""
            local f = assert(io.open("\#(path)", "wb"))
            f:write("#!/usr/bin/env cdscript\n", string.dump(load("print('from bytecode', ...)")))
            f:close()
            """#)
        let failure = bed.host.runScript(atPath: path, arguments: ["x"])
        #expect(failure == nil, "\(failure?.message ?? "")")
        #expect(bed.lines.last == "from bytecode x")
    }

    @Test("under the sandbox a precompiled main chunk is refused, naming the file")
    func binaryChunkSandboxed() throws {
        let bed = LuaTestbed(limits: ScriptLimits(sandbox: true))
        let source = Data([0x1B]) + Data("LuaT".utf8)
        let failure = try #require(bed.host.runScript(source: source, chunkName: "@dir/bc.lua"))
        #expect(failure.kind == .syntax)
        #expect(failure.message == "dir/bc.lua: precompiled (binary) chunks are refused under --sandbox (run the Lua source instead)")
    }

    @Test("a first # line before a precompiled chunk goes whole, as lua.c drops it")
    func shebangBeforeBytecode() {
        let text = LuaHost.executableScriptText(Data("#!/usr/bin/env cdscript\n\u{1B}Lua".utf8))
        #expect(text == Data("\u{1B}Lua".utf8))
        let source = LuaHost.executableScriptText(Data("#!/usr/bin/env cdscript\nprint(1)".utf8))
        #expect(source == Data("\nprint(1)".utf8))
    }

    @Test("an unreadable path is .unreadable")
    func unreadable() throws {
        let bed = LuaTestbed()
        let failure = try #require(bed.host.runScript(atPath: "/nonexistent/dir/script.lua"))
        #expect(failure.kind == .unreadable)
        #expect(failure.message.contains("/nonexistent/dir/script.lua"))
        #expect(failure.message.contains("no such file"))
    }

    @Test("a script file runs with arg[0] set to its path")
    func scriptFile() throws {
        let bed = LuaTestbed()
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("luahost-\(UUID().uuidString).lua").path
        try Data("zero = arg[0]; print(select('#', ...), ...)".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(bed.host.runScript(atPath: path, arguments: ["first"]) == nil)
        #expect(bed.lines == ["1 first"])
        #expect(bed.global("zero") == path)
    }
}
