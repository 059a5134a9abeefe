import CountdownCore
import Foundation
import LuaHost
import Testing

@Suite("Loading and the sandbox")
struct SandboxTests {
    @Test("precompiled bytecode is refused by load, loadfile, dofile and require, sandbox or not")
    func bytecodeRefused() throws {
        let dir = try temporaryFolder()
        let bed = HostBed(pluginPath: [dir])
        bed.mustRun("""
            local bytes = string.dump(function() return 1 end)
            print(load(bytes))
            print(load(bytes, "x", "b"))
            local f = io.open("\(dir)/compiled.lua", "wb") f:write(bytes) f:close()
            print(loadfile("\(dir)/compiled.lua"))
            print(pcall(dofile, "\(dir)/compiled.lua"))
            print(pcall(require, "compiled"))
            """)
        let lines = bed.lines
        #expect(lines.count == 5)
        #expect(lines[0].contains("attempt to load a binary chunk (mode is 't')"), "\(lines[0])")
        #expect(lines[1].contains("attempt to load a binary chunk (mode is 't')"))
        #expect(lines[2].contains("attempt to load a binary chunk"))
        #expect(lines[3].hasPrefix("false") && lines[3].contains("attempt to load a binary chunk"))
        #expect(lines[4].hasPrefix("false") && lines[4].contains("attempt to load a binary chunk"), "\(lines[4])")
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

    @Test("--sandbox removes io, os.execute, os.exit, os.remove, os.rename, package.loadlib, C loaders and debug")
    func removals() {
        let bed = HostBed(limits: ScriptLimits(sandbox: true))
        bed.mustRun("""
            print(io, os.execute, os.exit, os.remove, os.rename, package.loadlib, debug, #package.searchers)
            print(pcall(require, "io"))
            print(os.time() > 0, os.clock() >= 0, type(string.format), type(coroutine.create))
            """)
        #expect(bed.lines[0] == "nil nil nil nil nil nil nil 3")
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
        #expect(bed.lines[1].hasPrefix("false") && bed.lines[1].contains("is outside the script's folder (--sandbox)"), "\(bed.lines[1])")
        #expect(bed.lines[2].hasPrefix("false") && bed.lines[2].contains("is outside the script's folder"), "\(bed.lines[2])")
        #expect(bed.lines[3].hasPrefix("false") && bed.lines[3].contains("expected a file name inside the script's folder"))
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
