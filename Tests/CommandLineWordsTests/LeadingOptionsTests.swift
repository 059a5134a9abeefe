import Testing
@testable import CommandLineWords

/// Options before a command's name mean what they mean after it (LeadingOptions),
/// and a misspelt option is answered with the one meant (OptionHints).
@Suite("Options before a command's name, and misspelt options")
struct LeadingOptionsTests {
    @Test("a command's name after its own options is moved ahead of them")
    func commandMovedFirst() {
        #expect(LeadingOptions.reordered(["--speed", "60", "timer", "2m"]) == ["timer", "--speed", "60", "2m"])
        #expect(LeadingOptions.reordered(["--store", "redis://h", "list"]) == ["list", "--store", "redis://h"])
        #expect(LeadingOptions.reordered(["--plain", "--state-dir=s", "watch", "tea"]) == ["watch", "--plain", "--state-dir=s", "tea"])
    }

    @Test("another command's option before a name moves it too, so that the command says what it lacks")
    func anyCommandsOptions() {
        #expect(LeadingOptions.reordered(["--speed", "5", "list"]) == ["list", "--speed", "5"])
    }

    @Test("words that do not start with an option, or lead to no command's name, stay as they are")
    func otherWordsStay() {
        for words in [["list", "--json"], ["--speed", "60", "tea.lua"], ["--", "timer"], ["--exec", "timer"], ["help", "timer"], []] {
            #expect(LeadingOptions.reordered(words) == words, "\(words)")
        }
    }

    @Test("an option's value is not taken for a command's name")
    func valueIsNotACommand() {
        #expect(LeadingOptions.reordered(["--title", "list", "start", "tea", "5m"]) == ["start", "--title", "list", "tea", "5m"])
    }

    @Test("a misspelt long option is answered with the closest one of the command")
    func misspeltOption() {
        #expect(OptionHints.misspelt(["--verison"]) == "cdscript: unknown option '--verison'; did you mean '--version'?")
        #expect(OptionHints.misspelt(["list", "--jsno"]) == "cdscript: unknown option '--jsno'; did you mean '--json'?")
        #expect(OptionHints.misspelt(["status", "--format", "{id}", "--seperator", " "]) == "cdscript: unknown option '--seperator'; did you mean '--separator'?")
    }

    @Test("no hint for an option far from every name, after a script's name or `--`, or for help")
    func noHint() {
        #expect(OptionHints.misspelt(["list", "--zzzzzz"]) == nil)
        #expect(OptionHints.misspelt(["tea.lua", "--verison"]) == nil)
        #expect(OptionHints.misspelt(["list", "--", "--jsno"]) == nil)
        #expect(OptionHints.misspelt(["help", "--jsno"]) == nil)
        #expect(OptionHints.misspelt(["timer", "5m", "--exec", "prog", "--jsno"]) == nil)
    }

    @Test("an option that takes a value consumes it; one written with = does not")
    func consumesValues() {
        let options = CommandOptions(values: ["--store"], flags: ["--json"])
        #expect(options.consumesAll(["--store", "u", "--json"]))
        #expect(options.consumesAll(["--store=u", "--json"]))
        #expect(!options.consumesAll(["--store=u", "u"]))
        #expect(!options.consumesAll(["--other"]))
    }
}
