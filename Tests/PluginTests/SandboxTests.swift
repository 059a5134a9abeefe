import CountdownCore
import Foundation
import LuaHost
import Testing

@Suite("Loading and the sandbox")
struct SandboxTests {
    @Test("precompiled bytecode: refused by load, loadfile, dofile and require under --sandbox, loaded as lua5.4 loads it without")
    func bytecode() throws {
        let dir = try temporaryFolder()
        let bytes = "local bytes = string.dump(function() return 'compiled' end)"
        try write("return 1", to: dir + "/main.lua")
        let open = HostBed(pluginPath: [dir])
        open.mustRun("""
            \(bytes)
            local f = io.open("\(dir)/compiled.lua", "wb") f:write(bytes) f:close()
            print(load(bytes)(), load(bytes, "x", "b")(), loadfile("\(dir)/compiled.lua")(), dofile("\(dir)/compiled.lua"), (require("compiled")))
            print(load(bytes, "x", "t"))
            """)
        #expect(open.lines == ["compiled compiled compiled compiled compiled", "nil attempt to load a binary chunk (mode is 't')"])
        let sandboxed = HostBed(limits: ScriptLimits(sandbox: true), pluginPath: [dir])
        try write("""
            \(bytes)
            print(load(bytes))
            print(load(bytes, "x", "b"))
            print(loadfile("\(dir)/compiled.lua"))
            print(loadfile("\(dir)/compiled.lua", "b"))
            print(pcall(dofile, "\(dir)/compiled.lua"))
            print(pcall(require, "compiled"))
            """, to: dir + "/main.lua")
        if let failure = sandboxed.runFile(dir + "/main.lua") { Issue.record("\(failure.message)") }
        let message = "attempt to load a binary chunk (mode is 't')"
        #expect(sandboxed.lines.count == 6)
        #expect(sandboxed.lines.prefix(4).allSatisfy { $0 == "nil " + message }, "\(sandboxed.lines)")
        #expect(sandboxed.lines[4] == "false " + message)
        #expect(sandboxed.lines[5] == "false error loading module 'compiled' from file '\(dir)/compiled.lua':\n\t" + message, "\(sandboxed.lines[5])")
    }

    @Test("the instruction budget stops code loaded by load, loadfile, dofile and require")
    func budgetForLoadedCode() throws {
        let dir = try temporaryFolder()
        try write("while true do end", to: dir + "/spin.lua")
        let bed = HostBed(limits: ScriptLimits(instructionBudget: 100_000), pluginPath: [dir])
        for call in ["load('while true do end')()", "loadfile('\(dir)/spin.lua')()", "dofile('\(dir)/spin.lua')", "require('spin')"] {
            let failure = bed.run(call)
            #expect(failure?.message.contains("instruction budget exceeded") == true, "\(call): \(failure?.message ?? "")")
        }
    }

    @Test("load keeps its env argument, including an explicit nil")
    func loadEnv() {
        let bed = HostBed()
        bed.mustRun("""
            print(load("return x", "c", "t", { x = 7 })())
            print(pcall(load("return x", "c", "t", nil)))
            print(load("return 1 + 1")())
            """)
        #expect(bed.lines[0] == "7")
        #expect(bed.lines[1].hasPrefix("false"))
        #expect(bed.lines[2] == "2")
    }

    @Test("--sandbox removes io, os.execute, os.exit, os.remove, os.rename, package.loadlib, the C searchers and debug")
    func removals() {
        let bed = HostBed(limits: ScriptLimits(sandbox: true))
        bed.mustRun("""
            print(io, os.execute, os.exit, os.remove, os.rename, package.loadlib, debug, #package.searchers)
            print(pcall(require, "io"))
            print(os.time() > 0, os.clock() >= 0, type(string.format), type(coroutine.create))
            """)
        #expect(bed.lines[0] == "nil nil nil nil nil nil nil 2")
        #expect(bed.lines[1].hasPrefix("false") && bed.lines[1].contains("module 'io' not found"))
        #expect(bed.lines[2] == "true true function function")
    }

    @Test("--sandbox: loadfile and dofile work inside the script's folder only")
    func loadfileInsideFolder() throws {
        let dir = try temporaryFolder()
        let outside = try temporaryFolder()
        try write("return 'inside'", to: dir + "/lib/helper.lua")
        try write("return 'outside'", to: outside + "/secret.lua")
        try write("""
            print(dofile("\(dir)/lib/helper.lua"), loadfile("\(dir)/lib/helper.lua")())
            print(pcall(dofile, "\(outside)/secret.lua"))
            print(pcall(loadfile, "\(dir)/../\((outside as NSString).lastPathComponent)/secret.lua"))
            print(pcall(dofile))
            """, to: dir + "/main.lua")
        let bed = HostBed(limits: ScriptLimits(sandbox: true))
        if let failure = bed.runFile(dir + "/main.lua") { Issue.record("\(failure.message)") }
        #expect(bed.lines[0] == "inside inside")
        #expect(bed.lines[1] == "false cannot open \(outside)/secret.lua: outside the script's folder and the plugin folders (--sandbox)", "\(bed.lines[1])")
        #expect(bed.lines[2].hasPrefix("true nil cannot open ") && bed.lines[2].hasSuffix("(--sandbox)"), "\(bed.lines[2])")
        #expect(bed.lines[3] == "false cannot read stdin: refused by --sandbox")
    }

    @Test("without --sandbox, io and debug are there")
    func noSandbox() {
        let bed = HostBed(limits: .runDefaults)
        bed.mustRun("print(type(io), type(debug), type(os.execute))")
        #expect(bed.lines == ["table table function"])
    }

    @Test("the instruction budget counts per callback: many short hooks never add up to an error")
    func budgetPerCallback() {
        let bed = HostBed(limits: ScriptLimits(instructionBudget: 50_000))
        bed.mustRun("""
            countdown.start{ seconds = 100, every = 0.1, on_tick = function() local x = 0 for i = 1, 2000 do x = x + i end end }
            """)
        bed.advance(to: 101)
        #expect(bed.errors.isEmpty, "\(bed.errors.first ?? "")")
    }
}

@Suite("Absurd limits")
struct TinyLimitTests {
    @Test("a host with a 1 KB cap and a budget of 1 instruction still starts; scripts get the limit errors")
    func tinyLimits() {
        let clock = VirtualClock()
        let host = LuaHost(scheduler: Scheduler(clock: clock), limits: ScriptLimits(memoryLimit: 1024, instructionBudget: 1))
        let memory = host.runScript(source: Data("local t = {} for i = 1, 100 do t[i] = {} end".utf8), chunkName: "=tiny")
        #expect(memory?.message.contains("limit exceeded") == true, "\(memory?.message ?? "")")
        let budgeted = LuaHost(scheduler: Scheduler(clock: clock), limits: ScriptLimits(instructionBudget: 1))
        let budget = budgeted.runScript(source: Data("local x = 0 for i = 1, 10 do x = x + i end".utf8), chunkName: "=tiny")
        #expect(budget?.message.contains("tiny:1: instruction budget exceeded: more than 1 instructions") == true, "\(budget?.message ?? "")")
    }
}
