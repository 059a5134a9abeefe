import Foundation
import Testing

@Suite("cdscript run: bad input gets a clear message and a distinct exit code")
struct BadInputTests {
    @Test("a syntax error prints FILE:LINE: message and exits 3")
    func syntaxError() throws {
        let path = try BinaryRunner.script("local x = \nprint(\"a\"\ncountdown.start{seconds=1}\n")
        let result = try BinaryRunner.run([path])
        #expect(result.status == 3)
        // Lua shortens long chunk names from the left, so match the end of the path.
        #expect(result.stderr.contains("script.lua:3: ')' expected (to close '(' at line 2)"), "stderr: \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stdout.isEmpty)
    }

    @Test("a missing script exits 4 and says so")
    func missingScript() throws {
        let result = try BinaryRunner.run(["/nonexistent/nowhere.lua"])
        #expect(result.status == 4)
        #expect(result.stderr.contains("/nonexistent/nowhere.lua"))
        #expect(result.stderr.contains("no such file"))
    }

    @Test("a directory instead of a script exits 4")
    func directoryScript() throws {
        let result = try BinaryRunner.run(["examples"])
        #expect(result.status == 4)
        #expect(result.stderr.contains("directory"))
    }

    @Test("an unknown option exits 64 with a usage message")
    func unknownOption() throws {
        let result = try BinaryRunner.run(["--frobnicate", "x.lua"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--frobnicate"))
    }

    @Test("an error in the main chunk exits 2 with the location and a traceback")
    func topLevelError() throws {
        let path = try BinaryRunner.script("countdown.start{ seconds = -1 }\n")
        #expect(path.hasSuffix("script.lua"))
        let result = try BinaryRunner.run([path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("script.lua:1: countdown.start: 'seconds' must be a number of seconds > 0, got -1"))
        #expect(result.stderr.contains("stack traceback"))
    }

    @Test("each bad API argument is named in the error", arguments: [
        ("{ seconds = 1, every = 0.01 }", "'every' must be at least 0.1 seconds"),
        ("{ at = 'tomorrow-ish' }", "'at' = \"tomorrow-ish\""),
        ("{ seconds = 1, on_tick = 5 }", "'on_tick' must be a function, got number"),
        ("{ seconds = 1, at = '20:00' }", "either 'seconds' or 'at', not both"),
    ])
    func badArguments(options: String, message: String) throws {
        let path = try BinaryRunner.script("countdown.start\(options)\n")
        let result = try BinaryRunner.run([path])
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "stderr: \(result.stderr)")
    }

    @Test("an error in a hook stops that countdown only; the run ends non-zero after the others finish")
    func hookError() throws {
        let path = try BinaryRunner.script("""
            countdown.start{ id = "broken", seconds = 1, every = 0.1,
              on_tick = function(t) if t.remaining < 0.75 then error("boom") end end }
            countdown.start{ id = "healthy", seconds = 1,
              on_done = function(_, reason) print("healthy", reason) end }
            """)
        let result = try BinaryRunner.run([path])
        #expect(result.status == 1)
        #expect(result.stdout == "healthy\tfinished\n")
        #expect(result.stderr.contains("countdown \"broken\""))
        #expect(result.stderr.contains("boom"))
        #expect(result.stderr.contains("stack traceback"))
        #expect(result.seconds > 0.9)
    }
}
