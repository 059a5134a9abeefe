import Foundation
import Testing

extension StoreFaults {
    /// `cdscript status` reads plain words without ArgumentParser (it runs every
    /// second under a status bar); every other spelling still goes through
    /// ArgumentParser. The debug binary the tests run parses plain words both ways
    /// and stops when they differ; here, each spelling must print the same.
    @Suite("cdscript status reads its words as ArgumentParser does", .serialized)
    struct StatusWordsTests {
        @Test("plain words, options in any order, give what the same words in ArgumentParser's other spellings give")
        func spellings() throws {
            let dir = try StatusBarTests.seeded("status-words")
            let expected = ["held:paused|done:finished"]
            let spellings: [[String]] = [
                ["status", "--state-dir", dir, "--format", "{id}:{state}", "--separator", "|", "held", "done"],
                ["status", "held", "--separator", "|", "done", "--format", "{id}:{state}", "--state-dir", dir],
                ["status", "--state-dir=\(dir)", "--format={id}:{state}", "--separator=|", "held", "done"],
                ["--state-dir", dir, "status", "--format", "{id}:{state}", "--separator", "|", "held", "done"],
                ["status", "--state-dir", dir, "--format", "{id}:{state}", "--separator", "|", "--", "held", "done"],
            ]
            for words in spellings {
                let r = try LiveProcess.run(words)
                #expect(r.status == 0, "\(words): \(r.stderr)")
                #expect(r.lines == expected, "\(words)")
            }
            let defaults = try LiveProcess.run(["status", "--state-dir", dir, "held", "done"])
            #expect(defaults.lines == ["⏸ held 1:30  ⏹ done 0"], "the default format and separator: \(defaults.stderr)")
        }

        @Test("--for tmux reads alike in plain words and ArgumentParser's spellings; a reader it does not know is bad usage (64), naming those it knows")
        func forReader() throws {
            let dir = try StatusBarTests.seeded("status-words-for")
            for words in [["status", "--for", "tmux", "--state-dir", dir, "--format", "#{id}", "held"],
                          ["status", "--for=tmux", "--state-dir", dir, "--format", "#{id}", "held"],
                          ["--for", "tmux", "status", "--state-dir", dir, "--format", "#{id}", "held"]] {
                let r = try LiveProcess.run(words)
                #expect(r.status == 0 && r.lines == ["####held"], "\(words): \(r.lines) \(r.stderr)")
            }
            let text = try LiveProcess.run(["status", "--for", "text", "--state-dir", dir, "--format", "#{id}", "held"])
            #expect(text.lines == ["#held"], "\(text.stderr)")
            let unknown = try LiveProcess.run(["status", "--for", "tmx", "--state-dir", dir, "held"])
            #expect(unknown.status == 64, "\(unknown.stderr)")
            #expect(unknown.stderr.contains("tmux"), "\(unknown.stderr)")
        }

        @Test("what plain words cannot say still goes to ArgumentParser: help, a bad format, a misspelt or repeated option, a value that starts with a dash")
        func othersGoToArgumentParser() throws {
            let dir = try StatusBarTests.seeded("status-words-other")
            let help = try LiveProcess.run(["status", "--help"])
            #expect(help.status == 0)
            #expect(help.lines.contains { $0.contains("--separator") }, "\(help.lines)")
            let badFormat = try LiveProcess.run(["status", "--state-dir", dir, "--format", "{nope}"])
            #expect(badFormat.status == 64)
            #expect(badFormat.stderr.contains("unknown placeholder {nope}"), "\(badFormat.stderr)")
            let misspelt = try LiveProcess.run(["status", "--state-dri", dir])
            #expect(misspelt.status == 64, "\(misspelt.stderr)")
            let repeated = try LiveProcess.run(["status", "--state-dir", dir, "--separator", "a", "--separator", "b", "held", "done"])
            #expect(repeated.status == 0, "\(repeated.stderr)")
            #expect(repeated.lines == ["⏸ held 1:30b⏹ done 0"], "the last one wins, as ArgumentParser reads it")
            let dash = try LiveProcess.run(["status", "--state-dir", dir, "--separator=-", "held", "done"])
            #expect(dash.lines == ["⏸ held 1:30-⏹ done 0"], "\(dash.stderr)")
            let missing = try LiveProcess.run(["status", "--state-dir", dir, "held", "--format"])
            #expect(missing.status == 64, "\(missing.stderr)")
        }
    }
}
