import Foundation
import Testing

/// Issue 29, "Lua as lua5.4 runs it": a script precompiled by luac5.4 runs
/// outside --sandbox as `lua5.4 bc.lua` runs it; under --sandbox it is refused
/// with a message that names the file (exit 3, as a syntax error).
@Suite("Precompiled scripts (luac5.4): the real binary",
       .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/luac5.4"), "needs luac5.4 (Debian: lua5.4)"))
struct PrecompiledScriptTests {
    /// `source` compiled by luac5.4 into bc.lua beside the script; its path.
    func compiled(_ source: String) throws -> String {
        let script = try BinaryRunner.script(source)
        let output = URL(fileURLWithPath: script).deletingLastPathComponent().appendingPathComponent("bc.lua").path
        let luac = Process()
        luac.executableURL = URL(fileURLWithPath: "/usr/bin/luac5.4")
        luac.arguments = ["-o", output, script]
        try luac.run()
        luac.waitUntilExit()
        #expect(luac.terminationStatus == 0)
        return output
    }

    @Test("outside --sandbox it runs: countdowns, hooks and arguments as from source")
    func runs() throws {
        let path = try compiled("""
            print("args", ...)
            countdown.start{ id = "bc", seconds = 0.2, on_done = function(t, why) print(t.id, why) end }
            """)
        let result = try BinaryRunner.run([path, "one", "two"], timeout: 20)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "args\tone\ttwo\nbc\tfinished\n", "\(result.stdout) \(result.stderr)")
    }

    @Test("under --sandbox it is refused, naming the file: exit 3")
    func sandboxRefuses() throws {
        let path = try compiled(#"print("never")"#)
        let result = try BinaryRunner.run(["run", "--sandbox", path], timeout: 20)
        #expect(result.status == 3, "\(result.status) \(result.stderr)")
        #expect(result.stderr == "\(path): precompiled (binary) chunks are refused under --sandbox (run the Lua source instead)\n",
                "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }
}
