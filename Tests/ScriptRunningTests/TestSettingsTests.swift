import CommandEnding
import ScriptTesting
import Testing
@testable import ScriptRunning

/// `cdscript test` resolves each setting as busted does: the command line wins
/// over the `.busted` task, which wins over busted's defaults.
@Suite("cdscript test's settings merge the .busted file and the command line as busted does")
struct TestSettingsTests {
    @Test("with neither a flag nor a .busted key, busted's defaults hold")
    func defaults() throws {
        let settings = try TestSettings(TestFlags(), config: nil)
        #expect(settings.recursive)
        #expect(settings.keepGoing)
        #expect(settings.autoInsulate)
        #expect(!settings.shuffleFiles && !settings.shuffleTests && !settings.sortFiles && !settings.sortTests)
        #expect(settings.repeatCount == 1)
        #expect(settings.lpath == TestSettings.defaultLpath)
        #expect(settings.cpath == TestSettings.defaultCpath)
        #expect(settings.reportNames == .busted)
        guard case .human(let marks) = settings.output else {
            Issue.record("the report for people (utfTerminal) is the default output, got \(settings.output)")
            return
        }
        #expect(marks.passed == HumanReporter.Marks.unicode.passed)
    }

    @Test("a .busted key applies when the command line does not give the option")
    func configApplies() throws {
        let config = BustedConfig(values: ["pattern": ["_check"], "R": ["false"], "k": ["false"], "repeat": ["3"], "filter": ["slow"]])
        let settings = try TestSettings(TestFlags(), config: config)
        #expect(settings.patterns == ["_check"])
        #expect(!settings.recursive)
        #expect(!settings.keepGoing)
        #expect(settings.repeatCount == 3)
        #expect(settings.filters == ["slow"])
    }

    @Test("a flag on the command line wins over the .busted key")
    func flagsWin() throws {
        let config = BustedConfig(values: ["pattern": ["_check"], "recursive": ["false"], "repeat": ["3"], "lpath": ["./lib/?.lua"]])
        var flags = TestFlags()
        flags.pattern = ["_spec"]
        flags.recursive = true
        flags.repeatCount = 2
        flags.lpath = ["./a/?.lua", "./b/?.lua"]
        let settings = try TestSettings(flags, config: config)
        #expect(settings.patterns == ["_spec"])
        #expect(settings.recursive)
        #expect(settings.repeatCount == 2)
        #expect(settings.lpath == "./a/?.lua;./b/?.lua")
    }

    @Test("--shuffle is --shuffle-files with --shuffle-tests, and a shuffled run gets a seed it can be run again with")
    func shuffleMeansBoth() throws {
        var flags = TestFlags()
        flags.shuffle = true
        let settings = try TestSettings(flags, config: nil)
        #expect(settings.shuffleFiles && settings.shuffleTests)
        #expect(settings.seed != nil)
        flags.shuffleTests = false
        flags.seed = 7
        let narrowed = try TestSettings(flags, config: nil)
        #expect(narrowed.shuffleFiles && !narrowed.shuffleTests)
        #expect(narrowed.seed == 7)
    }

    @Test("tags are comma-separated lists, blanks dropped, from every --tags given")
    func tagLists() {
        #expect(TestFlags.tagList(["fast, unit", " slow ", ",,"]) == ["fast", "unit", "slow"])
    }

    @Test("a tag both run and left out is bad usage, said by name")
    func tagInBothLists() {
        var flags = TestFlags()
        flags.tags = ["net"]
        flags.excludeTags = ["slow,net"]
        #expect(throws: TestSettings.Usage.self) { try TestSettings(flags, config: nil) }
    }

    @Test("a .busted seed or repeat that is no whole number is bad usage")
    func badConfigNumbers() {
        #expect(throws: TestSettings.Usage.self) { try TestSettings(TestFlags(), config: BustedConfig(values: ["seed": ["x"]])) }
        #expect(throws: TestSettings.Usage.self) { try TestSettings(TestFlags(), config: BustedConfig(values: ["repeat": ["0"]])) }
    }

    @Test("--tap and -o pick the output; -o wins, and .busted's output applies without either")
    func outputChoice() throws {
        var flags = TestFlags()
        flags.tap = true
        guard case .tap = try TestSettings(flags, config: nil).output else {
            Issue.record("--tap writes TAP")
            return
        }
        flags.output = "junit"
        flags.xoutput = ["report.xml"]
        guard case .junit(file: "report.xml") = try TestSettings(flags, config: nil).output else {
            Issue.record("-o junit -Xoutput FILE writes JUnit into FILE")
            return
        }
        guard case .json(file: nil) = try TestSettings(TestFlags(), config: BustedConfig(values: ["o": ["json"]])).output else {
            Issue.record(".busted's -o applies without a flag")
            return
        }
    }
}

@Suite("cdscript test's output handlers are named as busted names them")
struct TestOutputNameTests {
    @Test("built-in names are taken in any case")
    func anyCase() throws {
        guard case .tap = try TestOutput(name: "tap", options: [], verbose: false) else {
            Issue.record("tap is TAP")
            return
        }
        guard case .human(let marks) = try TestOutput(name: "PLAINTERMINAL", options: [], verbose: false) else {
            Issue.record("PLAINTERMINAL is plainTerminal")
            return
        }
        #expect(marks.passed == HumanReporter.Marks.ascii.passed)
    }

    @Test("a name that is not built in is a Lua output handler, given its options")
    func luaHandler() throws {
        guard case .lua(name: "my_handler", arguments: ["a", "b"]) = try TestOutput(name: "my_handler", options: ["a", "b"], verbose: false) else {
            Issue.record("an unknown name is a Lua output handler")
            return
        }
    }

    @Test("refusals name the option and what to use instead")
    func refusals() {
        #expect(throws: UsageError("-o sound: cdscript test plays no sounds; use \(TestOutput.BuiltIn.namesText)")) {
            try TestOutput(name: "sound", options: [], verbose: false)
        }
        #expect(throws: UsageError("-Xoutput --wide: the TAP output takes --plain or --color only (cdscript's reports have no colours)")) {
            try TestOutput(name: "TAP", options: ["--wide"], verbose: false)
        }
        #expect(throws: UsageError("-Xoutput: the json output takes one file name, got a.json,b.json")) {
            try TestOutput(name: "json", options: ["a.json", "b.json"], verbose: false)
        }
    }
}
