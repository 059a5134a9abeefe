import Foundation
import Testing

/// Every command that writes text from a script, a plugin or a store writes it
/// escaped (VisibleText): no ESC, BEL, C1 control or bidi override of theirs
/// reaches the terminal. Each place is walked with the same hostile text.
@Suite("No escape sequence from a script, plugin or store reaches the terminal")
struct EscapedOutputTests {
    /// Clears the screen, rings, a C1 CSI (U+009B), an OSC 52 clipboard write, a right-to-left override.
    static let hostileLua = #"A\27[2J\7\u{9B}31m\27]52;c;cHduZWQ=\7\u{202E}Z"#

    /// Control characters that act on a terminal (newline and tab lay text out and are allowed).
    static func rawControls(_ text: String) -> [UInt32] {
        text.unicodeScalars.map(\.value).filter { value in
            (value < 0x20 && value != 0x0A && value != 0x09) || (0x7F...0x9F).contains(value)
                || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
        }
    }

    static func folder() throws -> String {
        (try BinaryRunner.script("", name: "unused.lua") as NSString).deletingLastPathComponent
    }

    @Test("cdscript plugins: a plugin's file name, description and top-level print and warn are escaped")
    func plugins() throws {
        let dir = try Self.folder()
        let source = "print(\"\(Self.hostileLua)\") warn('@on') warn(\"w \(Self.hostileLua)\") return { description = \"\(Self.hostileLua)\" }"
        try source.write(toFile: dir + "/hostile.lua", atomically: true, encoding: .utf8)
        try "return { description = 'named oddly' }".write(toFile: dir + "/odd\u{1B}[31m\u{9B}name.lua", atomically: true, encoding: .utf8)
        let result = try BinaryRunner.run(["plugins", "--plugin-path", dir])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.rawControls(result.stdout).isEmpty, "\(result.stdout.debugDescription)")
        #expect(Self.rawControls(result.stderr).isEmpty, "\(result.stderr.debugDescription)")
        #expect(result.stdout.contains(#"  hostile  \#(dir)/hostile.lua (--plugin-path) - A\e[2J\x07\u{009b}31m\e]52;c;cHduZWQ=\x07\u{202e}Z"#), "\(result.stdout)")
        #expect(result.stdout.contains(#"  odd\e[31m\u{009b}name  "#), "\(result.stdout)")
        #expect(result.stderr.contains(#"cdscript: plugin hostile printed while being listed: A\e[2J\x07\u{009b}31m\e]52"#), "\(result.stderr)")
        #expect(result.stderr.contains(#"cdscript: plugin hostile printed while being listed: Lua warning: w A\e[2J"#), "\(result.stderr)")
    }

    @Test("the exec and notify plugins' warnings escape the countdown's id")
    func pluginWarnings() throws {
        let script = try BinaryRunner.script("""
            -- A program named by a placeholder is looked up when it runs (the end), not at use().
            use("exec", { command = { "/nonexistent/cdscript-no-such-program-{id}" } })
            use("notify", { program = "cdscript-no-such-notifier" })
            countdown.start{ id = "\(Self.hostileLua)", seconds = 0.05 }
            """)
        let result = try BinaryRunner.run(["run", script])
        #expect(Self.rawControls(result.stderr).isEmpty, "\(result.stderr.debugDescription)")
        #expect(result.stderr.contains(#"cdscript exec: not run for countdown "A\e[2J\x07\u{009b}31m\e]52;c;cHduZWQ=\x07\u{202e}Z""#), "\(result.stderr)")
        #expect(result.stderr.contains(#"cdscript notify: no desktop notification for countdown "A\e[2J"#), "\(result.stderr)")
    }

    @Test("cdscript test: test names, error messages and captured output are escaped, as report, as TAP and in JUnit XML")
    func testReports() throws {
        let spec = try BinaryRunner.script("""
            describe("suite \(Self.hostileLua)", function()
              it("name \(Self.hostileLua)", function()
                print("out \(Self.hostileLua)")
                error("msg \(Self.hostileLua)", 0)
              end)
            end)
            """, name: "hostile_spec.lua")
        let junit = try BinaryRunner.run(["test", "-o", "junit", spec])
        #expect(Self.rawControls(junit.stdout).isEmpty, "\(junit.stdout.debugDescription)")
        #expect(junit.stdout.contains("msg A\u{FFFD}[2J\u{FFFD}&#x9B;31m"), "\(junit.stdout)")
        for format in [[], ["--tap"]] {
            let result = try BinaryRunner.run(["test"] + format + [spec])
            #expect(result.status == 1, "\(result.stderr)")
            #expect(Self.rawControls(result.stdout).isEmpty, "\(format) \(result.stdout.debugDescription)")
            #expect(Self.rawControls(result.stderr).isEmpty, "\(format) \(result.stderr.debugDescription)")
            #expect(result.stdout.contains(#"name A\e[2J\x07\u{009b}31m\e]52;c;cHduZWQ=\x07\u{202e}Z"#), "\(format) \(result.stdout)")
            // TAP's YAML strings use YAML's escapes.
            let esc = format.isEmpty ? #"\e[2J\x07\u{009b}"# : #"\x1B[2J\x07\u009B"#
            #expect(result.stdout.contains("msg A" + esc), "\(format) \(result.stdout)")
            #expect(result.stdout.contains("out A" + esc), "\(format) \(result.stdout)")
        }
    }

    @Test("__complete-ids leaves out ids with control characters and offers the others; list and list --json escape them")
    func completeIDs() throws {
        let state = try Self.folder() + "/state"
        let script = try BinaryRunner.script("""
            countdown.start{ id = "\(Self.hostileLua)", seconds = 300, persist = true }
            countdown.start{ id = "bidi\\u{202E}txt", seconds = 300, persist = true }
            countdown.start{ id = "tea", seconds = 300, persist = true }
            countdown.start{ id = "back\\\\slash", seconds = 300, persist = true }
            """)
        _ = try BinaryRunner.run(["run", "--state-dir", state, script], signal: SIGINT, signalAfter: 1.0)
        let result = try BinaryRunner.run(["__complete-ids", "--state-dir", state])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.rawControls(result.stdout).isEmpty, "\(result.stdout.debugDescription)")
        #expect(result.lines == ["back\\slash", "tea"], "\(result.stdout.debugDescription)")
        // The store does hold the hostile ones: `list` shows them escaped.
        let list = try BinaryRunner.run(["list", "--state-dir", state])
        #expect(list.stdout.contains(#"A\e[2J"#), "\(list.stdout)")
        #expect(Self.rawControls(list.stdout).isEmpty, "\(list.stdout.debugDescription)")
        // JSON has its own escapes: C1 and bidi overrides among them.
        let json = try BinaryRunner.run(["list", "--json", "--state-dir", state])
        #expect(Self.rawControls(json.stdout).isEmpty, "\(json.stdout.debugDescription)")
        #expect(json.stdout.contains(#"\u009b31m"#) && json.stdout.contains(#"bidi\u202etxt"#), "\(json.stdout)")
    }

    @Test("cdscript run: the messages of a hook's and of the main chunk's errors are escaped (the traceback keeps its lines)")
    func errorMessages() throws {
        let hook = try BinaryRunner.script("""
            countdown.start{ id = "\(Self.hostileLua)", seconds = 0.05, on_done = function() error("hook \(Self.hostileLua)") end }
            """)
        let hookResult = try BinaryRunner.run(["run", hook])
        #expect(hookResult.status == 1, "\(hookResult.stderr)")
        #expect(Self.rawControls(hookResult.stderr).isEmpty, "\(hookResult.stderr.debugDescription)")
        #expect(hookResult.stderr.contains("hook A\\e[2J\\x07\\u{009b}31m\\e]52;c;cHduZWQ=\\x07\\u{202e}Z\nstack traceback:\n"), "\(hookResult.stderr)")
        let main = try BinaryRunner.script("error(\"main \(Self.hostileLua)\")")
        let mainResult = try BinaryRunner.run(["run", main])
        #expect(mainResult.status == 2, "\(mainResult.stderr)")
        #expect(Self.rawControls(mainResult.stderr).isEmpty, "\(mainResult.stderr.debugDescription)")
        #expect(mainResult.stderr.contains(#"main A\e[2J\x07"#), "\(mainResult.stderr)")
    }
}
