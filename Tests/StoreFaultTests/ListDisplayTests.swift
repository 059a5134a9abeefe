import Foundation
import Testing

extension StoreFaults {
    @Suite("cdscript list and cancel print ids as a person can read them", .serialized)
    struct ListDisplayTests {
        @Test("columns line up by display width: an id like 名前 takes four columns")
        func wideIDs() throws {
            let dir = Scratch.directory("wide")
            let seed = try LiveProcess.run(["--state-dir", dir, Scratch.script("""
                countdown.start{ id = "名前", seconds = 3600, persist = true }
                countdown.start{ id = "abcd", seconds = 3600, persist = true }
                countdown.start{ id = "限时抢购🍅", seconds = 3600, persist = true }:pause()
                countdown.start{ seconds = 0.1, on_done = function() os.exit(0) end }
                """)])
            #expect(seed.status == 0, "\(seed.stderr)")
            let table = try LiveProcess.run(["list", "--state-dir", dir])
            #expect(table.status == 0, "\(table.stderr)")
            // Widest id: 限时抢购🍅, 10 columns; then two blanks.
            #expect(table.lines.count == 4, "\(table.lines)")
            #expect(table.lines.first?.hasPrefix("ID          STATE") == true)
            #expect(table.lines.contains { $0.hasPrefix("abcd        running") })
            #expect(table.lines.contains { $0.hasPrefix("名前        running") })
            #expect(table.lines.contains { $0.hasPrefix("限时抢购🍅  paused") })
        }

        @Test("control characters in ids are printed escaped by list and cancel; JSON escapes them as JSON does")
        func escapedIDs() throws {
            let dir = Scratch.directory("escape")
            let seed = try LiveProcess.run(["--state-dir", dir, Scratch.script(#"""
                countdown.start{ id = "clear\27[2Jscreen", seconds = 3600, persist = true }
                countdown.start{ id = "two\nlines", seconds = 3600, persist = true }
                countdown.start{ seconds = 0.1, on_done = function() os.exit(0) end }
                """#)])
            #expect(seed.status == 0, "\(seed.stderr)")
            let table = try LiveProcess.run(["list", "--state-dir", dir])
            #expect(!table.lines.joined().contains("\u{1B}"))
            #expect(table.lines.count == 3, "\(table.lines)")
            #expect(table.lines.contains { $0.hasPrefix(#"clear\e[2Jscreen  running"#) })
            #expect(table.lines.contains { $0.hasPrefix(#"two\nlines"# + String(repeating: " ", count: 8) + "running") })
            let json = try LiveProcess.run(["list", "--json", "--state-dir", dir])
            let text = json.lines.joined(separator: "\n")
            #expect(!text.contains("\u{1B}"))
            #expect(text.contains(#""id" : "two\nlines""#), "\(text)")
            let entries = try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
            #expect(Set(entries.compactMap { $0["id"] as? String }) == ["clear\u{1B}[2Jscreen", "two\nlines"])
            let cancelled = try LiveProcess.run(["cancel", "two\nlines", "--state-dir", dir])
            #expect(cancelled.lines == [#"cancelled two\nlines"#])
            let missing = try LiveProcess.run(["cancel", "gone\u{1B}[2J", "--state-dir", dir])
            #expect(missing.status == 7)
            #expect(missing.stderr.contains(#"no stored countdown has the id 'gone\e[2J'"#))
            #expect(!missing.stderr.contains("\u{1B}"))
        }

        @Test("list --json with nothing stored prints [] exactly")
        func emptyJSON() throws {
            let dir = Scratch.directory("empty")
            #expect(try LiveProcess.run(["list", "--json", "--state-dir", dir]).lines == ["[]"])
            let seed = try LiveProcess.run(["--state-dir", dir, Scratch.script("""
                countdown.start{ id = "x", seconds = 60, persist = true }
                countdown.start{ seconds = 0.1, on_done = function() os.exit(0) end }
                """)])
            #expect(seed.status == 0, "\(seed.stderr)")
            _ = try LiveProcess.run(["cancel", "x", "--state-dir", dir])
            #expect(try LiveProcess.run(["list", "--json", "--state-dir", dir]).lines == ["[]"])
        }
    }
}
