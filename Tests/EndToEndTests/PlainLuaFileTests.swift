import Foundation
import Testing

/// `cdscript FILE ARGS` on a plain Lua file that starts no countdown: what
/// `lua5.4 FILE ARGS` does, so that cdscript can be a spec's `arg[-1]`.
@Suite("A plain Lua file under cdscript FILE ARGS, against lua5.4 FILE ARGS")
struct PlainLuaFileTests {
    /// Prints `arg` from its lowest index, with the interpreter replaced by `INTERPRETER`.
    static let source = """
        local first = 0
        while arg[first - 1] do first = first - 1 end
        local parts = { "INTERPRETER" }
        for i = first + 1, #arg do parts[#parts + 1] = i .. "=" .. tostring(arg[i]) end
        print(table.concat(parts, " "))
        print("varargs", select("#", ...), ...)
        io.write("stdin:", tostring(io.read("l")), "\\n")
        if arg[1] == "exit" then os.exit(tonumber(arg[2])) end
        """

    func both(_ options: [String], _ arguments: [String]) throws -> (lua: BinaryRunner.Result, cdscript: BinaryRunner.Result) {
        let path = try BinaryRunner.script(Self.source, name: "plain.lua")
        let lua = try BinaryRunner.run(options + [path] + arguments, executable: URL(fileURLWithPath: StandardLuaTests.lua))
        let cdscript = try BinaryRunner.run(options + [path] + arguments)
        return (lua, cdscript)
    }

    @Test("arg (the script at 0, its arguments from 1, what came before it at negative indices), ..., stdout and the exit code are lua5.4's")
    func sameAsLua() throws {
        for (options, arguments) in [([], []), ([], ["a", "b c", "--flag"]), (["-e", "x = 1"], ["exit", "3"]), ([], ["exit", "0"])] {
            let (lua, cdscript) = try both(options, arguments)
            #expect(cdscript.stdout == lua.stdout, "\(options) \(arguments)")
            #expect(cdscript.status == lua.status, "\(options) \(arguments): \(cdscript.stderr)")
        }
    }

    @Test("-e runs its statement before the script, as lua5.4's does")
    func statement() throws {
        let path = try BinaryRunner.script("print(greeting, arg[-1], arg[-2])", name: "e.lua")
        let result = try BinaryRunner.run(["-e", "greeting = 'hi'", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "hi\tgreeting = 'hi'\t-e\n")
    }
}
