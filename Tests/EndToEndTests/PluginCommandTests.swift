import Foundation
import Testing

@Suite("cdscript plugins and run's hardening options: the real binary")
struct PluginCommandTests {
    @Test("plugins lists the built-in plugins and those on --plugin-path, and names one that fails with its file and line")
    func listsPlugins() throws {
        let script = try BinaryRunner.script("return { description = 'mine', setup = function() end }", name: "mine.lua")
        let dir = (script as NSString).deletingLastPathComponent
        try "local = 1\n".write(toFile: dir + "/broken.lua", atomically: true, encoding: .utf8)
        let result = try BinaryRunner.run(["plugins", "--plugin-path", dir])
        #expect(result.status == 2)
        #expect(result.stdout.contains("  \(dir) (--plugin-path)"))
        #expect(result.stdout.contains("  mine  \(dir)/mine.lua (--plugin-path) - mine"))
        #expect(result.stdout.contains("  broken  \(dir)/broken.lua (--plugin-path) - FAILS TO LOAD"))
        for name in ["bell", "exec", "formats", "log", "notify", "timer_keys"] {
            #expect(result.stdout.contains("  \(name)  (built-in) - "), "\(name)")
        }
        #expect(result.stderr.contains("cdscript: plugin broken fails to load: error loading module 'broken' from file '\(dir)/broken.lua':"))
        #expect(result.stderr.contains("broken.lua:1:"))
    }

    @Test("plugins loads each plugin under --sandbox: top-level code gets no io, no os.execute, no environment")
    func pluginsAreSandboxed() throws {
        let marker = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-plugins-\(UUID().uuidString)").path
        let script = try BinaryRunner.script("""
            local f = io.open("\(marker)", "w") f:write("ran") f:close()
            return { description = "writes files" }
            """, name: "writer.lua")
        let dir = (script as NSString).deletingLastPathComponent
        try "os.execute('touch \(marker)') return {}".write(toFile: dir + "/runner.lua", atomically: true, encoding: .utf8)
        try "return { description = tostring(os.getenv('HOME')) }".write(toFile: dir + "/env.lua", atomically: true, encoding: .utf8)
        let result = try BinaryRunner.run(["plugins", "--plugin-path", dir])
        #expect(result.status == 2)
        #expect(!FileManager.default.fileExists(atPath: marker))
        #expect(result.stdout.contains("  writer  \(dir)/writer.lua (--plugin-path) - FAILS TO LOAD"))
        #expect(result.stdout.contains("  runner  \(dir)/runner.lua (--plugin-path) - FAILS TO LOAD"))
        #expect(result.stdout.contains("  env  \(dir)/env.lua (--plugin-path) - nil"), "\(result.stdout)")
        #expect(result.stderr.contains("writer.lua:1: attempt to index a nil value (global 'io')"), "\(result.stderr)")
    }

    @Test("run --plugin-path makes a plugin usable; a built-in one works without it")
    func runWithPlugin() throws {
        let script = try BinaryRunner.script("""
            use("formats")
            print(use("hello", { who = "plugin" }), countdown.format(3723.4, "compact"))
            """)
        let dir = (script as NSString).deletingLastPathComponent + "/more"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try "return { setup = function(o) return 'hello ' .. o.who end }".write(toFile: dir + "/hello.lua", atomically: true, encoding: .utf8)
        let result = try BinaryRunner.run(["run", "--plugin-path", dir, script])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "hello plugin\t01:02:03.4\n")
    }

    @Test("--budget ends a runaway hook with a clear error; the other countdown finishes and the exit code is 1")
    func budget() throws {
        let script = try BinaryRunner.script("""
            countdown.start{ id = "spin", seconds = 0.3, every = 0.1, on_tick = function(t) if t.remaining < 0.25 then while true do end end end }
            countdown.start{ id = "calm", seconds = 0.5, on_done = function() print("calm done") end }
            """)
        let result = try BinaryRunner.run(["run", "--budget", "1000000", script])
        #expect(result.status == 1)
        #expect(result.stdout == "calm done\n")
        #expect(result.stderr.contains("cdscript: error in on_tick of countdown \"spin\": "))
        #expect(result.stderr.contains("script.lua:1: instruction budget exceeded: more than 1000000 instructions in one callback (raise it with --budget)"))
    }

    @Test("--memory-limit ends a memory bomb with a clear error, and bad sizes are usage errors")
    func memoryLimit() throws {
        let script = try BinaryRunner.script("local t = {} for i = 1, 1e9 do t[i] = {} end")
        let result = try BinaryRunner.run(["run", "--memory-limit", "16M", script])
        #expect(result.status == 2)
        #expect(result.stderr.contains("memory limit exceeded: the script's Lua memory would pass 16 MB (raise it with --memory-limit)"), "\(result.stderr)")
        let bad = try BinaryRunner.run(["run", "--memory-limit", "lots", script])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("--memory-limit must be a size such as 512M, 1G or 1048576 (bytes), got 'lots'"))
    }

    @Test("--sandbox removes io and os.execute; without it they are there")
    func sandbox() throws {
        let script = try BinaryRunner.script("print(io == nil, os.execute == nil, debug == nil)")
        let sandboxed = try BinaryRunner.run(["run", "--sandbox", script])
        #expect(sandboxed.stdout == "true\ttrue\ttrue\n")
        let open = try BinaryRunner.run(["run", script])
        #expect(open.stdout == "false\tfalse\tfalse\n")
    }
}
