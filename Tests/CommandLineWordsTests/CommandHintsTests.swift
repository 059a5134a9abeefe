import Testing
@testable import CommandLineWords

/// What the command line says before parsing: `-v` for the version, `help` of
/// an unknown command, a command's name mistyped as a script.
@Suite("Hints for what people type at the edges")
struct CommandHintsTests {
    @Test("-v, -V and -version point to --version")
    func versionSpellings() {
        for word in ["-v", "-V", "-version"] {
            #expect(CommandHints.preflight([word]) == "cdscript: unknown option '\(word)'; for the version, use --version")
        }
        #expect(CommandHints.preflight(["--version"]) == nil)
    }

    @Test("help of an unknown command names the one meant and lists them all")
    func helpOfUnknownCommand() {
        let all = "run, test, list, cancel, clear, plugins, timer, stopwatch, new, start, append, pause, resume, watch, status, serve, check, help"
        #expect(CommandHints.preflight(["help", "lsit"]) == "cdscript: no command `lsit` (did you mean `list`?); commands: \(all)")
        #expect(CommandHints.preflight(["help", "zzzzzz"]) == "cdscript: no command `zzzzzz`; commands: \(all)")
        #expect(CommandHints.preflight(["help", "list"]) == nil)
        #expect(CommandHints.preflight(["help"]) == nil)
        #expect(CommandHints.preflight(["help", "--help"]) == nil)
        #expect(CommandHints.preflight([]) == nil)
    }

    @Test("a script named like a command, with no such file, is taken for the command mistyped")
    func mistypedCommand() {
        #expect(CommandHints.mistypedCommand(script: "lsit") == "cdscript: there is no script `lsit`; did you mean `cdscript list`?")
        #expect(CommandHints.mistypedCommand(script: "lsit.lua") == nil)
        #expect(CommandHints.mistypedCommand(script: "dir/lsit") == nil)
        #expect(CommandHints.mistypedCommand(script: "zzzzzz") == nil)
    }

    @Test("the edit distance counts a swap of neighbours as one edit")
    func editDistance() {
        #expect(CommandHints.editDistance("list", "lsit") == 1)
        #expect(CommandHints.editDistance("kitten", "sitting") == 3)
        #expect(CommandHints.editDistance("", "abc") == 3)
        #expect(CommandHints.editDistance("same", "same") == 0)
    }

    @Test("the closest name is within two edits and closer than the word is long")
    func closest() {
        #expect(CommandHints.closest(to: "stat", in: ["start", "status"]) == "start")
        #expect(CommandHints.closest(to: "ab", in: ["xy"]) == nil)
        #expect(CommandHints.closest(to: "x", in: ["y"]) == "y")
    }
}
