import Foundation
import Testing

extension StoreFaults {
    @Suite("cdscript list, cancel and clear; the persistent SMS example", .serialized)
    struct CommandLineTests {
        @Test("list shows id, state, remaining and deadline, as a table or JSON; cancel removes one; clear removes finished ones")
        func listCancelClear() throws {
            let dir = Scratch.directory("cli")
            let seed = try LiveProcess.run(["--state-dir", dir, Scratch.script("""
                countdown.start{ id = "long", seconds = 3600, persist = true }
                countdown.start{ id = "held", seconds = 90, persist = true }:pause()
                countdown.start{ id = "short", seconds = 0.2, persist = true, on_done = function() os.exit(0) end }
                """)])
            // The run ends when "short" does, while "long" and "held" are still active.
            #expect(seed.status == 0, "\(seed.stderr)")
            let table = try LiveProcess.run(["list", "--state-dir", dir])
            #expect(table.status == 0, "\(table.stderr)")
            #expect(table.lines.first?.split(separator: " ", omittingEmptySubsequences: true) == ["ID", "STATE", "REMAINING", "DEADLINE"])
            let byID = Dictionary(uniqueKeysWithValues: table.lines.dropFirst().map { line in
                let cells = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
                return (cells[0], cells)
            })
            #expect(byID["held"]?[1] == "paused")
            #expect(byID["held"]?[2].hasPrefix("00:01:29.") == true || byID["held"]?[2] == "00:01:30.0")
            #expect(byID["held"]?[3] == "-")
            #expect(byID["long"]?[1] == "running")
            #expect(byID["long"]?[2].hasPrefix("00:59:5") == true)
            #expect(byID["long"]?[3].hasSuffix("Z") == true)
            #expect(byID["short"]?[1] == "finished")

            let json = try LiveProcess.run(["list", "--json", "--state-dir", dir])
            #expect(json.status == 0)
            let entries = try #require(JSONSerialization.jsonObject(with: Data(json.lines.joined().utf8)) as? [[String: Any]])
            #expect(entries.map { $0["id"] as? String } == ["held", "long", "short"])
            #expect(abs((entries[0]["remaining"] as? Double ?? 0) - 90) < 0.2)
            #expect(entries[0]["deadline"] is NSNull)
            #expect(entries[1]["state"] as? String == "running")
            #expect(entries[1]["kind"] as? String == "duration")

            let cleared = try LiveProcess.run(["clear", "--state-dir", dir])
            #expect(cleared.lines == ["removed 1 finished countdown: short"])
            let cancelled = try LiveProcess.run(["cancel", "held", "--state-dir", dir])
            #expect(cancelled.status == 0)
            #expect(cancelled.lines == ["cancelled held"])
            let again = try LiveProcess.run(["cancel", "held", "--state-dir", dir])
            #expect(again.status == 7)
            #expect(again.stderr.contains("no stored countdown has the id 'held'"))
            #expect(try LiveProcess.run(["list", "--json", "--state-dir", dir]).lines.joined().contains(#""id" : "long""#))
        }

        @Test("list, cancel and clear escape control characters in ids: an ESC sequence or a newline cannot reach the terminal")
        func controlCharactersEscaped() throws {
            let dir = Scratch.directory("cli-escape")
            let seed = try LiveProcess.run(["--state-dir", dir, Scratch.script(#"""
                countdown.start{ id = "x\27[2Jy", seconds = 3600, persist = true }
                countdown.start{ id = "two\nlines", seconds = 0.1, persist = true, on_done = function() os.exit(0) end }
                """#)])
            #expect(seed.status == 0, "\(seed.stderr)")
            let table = try LiveProcess.run(["list", "--state-dir", dir])
            let tableText = table.lines.joined(separator: "\n")
            #expect(!tableText.contains("\u{1B}"))
            #expect(table.lines.count == 3)
            #expect(tableText.contains(#"x\e[2Jy"#))
            #expect(tableText.contains(#"two\nlines"#))
            let json = try LiveProcess.run(["list", "--json", "--state-dir", dir])
            #expect(!json.lines.joined().contains("\u{1B}"))
            let entries = try #require(JSONSerialization.jsonObject(with: Data(json.lines.joined().utf8)) as? [[String: Any]])
            #expect(Set(entries.compactMap { $0["id"] as? String }) == ["x\u{1B}[2Jy", "two\nlines"])
            let cleared = try LiveProcess.run(["clear", "--state-dir", dir])
            #expect(cleared.lines == [#"removed 1 finished countdown: two\nlines"#])
            let cancelled = try LiveProcess.run(["cancel", "x\u{1B}[2Jy", "--state-dir", dir])
            #expect(cancelled.lines == [#"cancelled x\e[2Jy"#])
        }

        @Test("without a store, list says so and creates nothing; CDSCRIPT_STATE_DIR and XDG_STATE_HOME choose the place")
        func whereTheStoreIs() throws {
            let dir = Scratch.directory("where")
            let empty = try LiveProcess.run(["list"], environment: ["CDSCRIPT_STATE_DIR": dir + "/env"])
            #expect(empty.status == 0)
            #expect(empty.lines == ["no stored countdowns in \(dir)/env/state.sqlite"])
            #expect(!FileManager.default.fileExists(atPath: dir + "/env"))
            #expect(try LiveProcess.run(["list", "--json"], environment: ["CDSCRIPT_STATE_DIR": dir + "/env"]).lines.joined() == "[]")

            let script = Scratch.script(#"countdown.start{ id = "x", seconds = 60, persist = true }; os.exit(0)"#)
            #expect(try LiveProcess.run([script], environment: ["XDG_STATE_HOME": dir + "/xdg"]).status == 0)
            #expect(FileManager.default.fileExists(atPath: dir + "/xdg/cdscript/state.sqlite"))
            #expect(try LiveProcess.run(["run", script], environment: ["HOME": dir + "/home", "XDG_STATE_HOME": ""]).status == 0)
            #expect(FileManager.default.fileExists(atPath: dir + "/home/.local/state/cdscript/state.sqlite"))
            let perms = try FileManager.default.attributesOfItem(atPath: dir + "/home/.local/state/cdscript/state.sqlite")[.posixPermissions] as? Int
            #expect(perms == 0o600)
            // --state-dir beats the environment.
            #expect(try LiveProcess.run(["--state-dir", dir + "/opt", script], environment: ["CDSCRIPT_STATE_DIR": dir + "/env"]).status == 0)
            #expect(FileManager.default.fileExists(atPath: dir + "/opt/state.sqlite"))
            #expect(!FileManager.default.fileExists(atPath: dir + "/env"))
        }

        @Test("examples/persistent_sms.lua, killed in the middle of its cooldown, continues from the right remaining time")
        func persistentExample() throws {
            let dir = Scratch.directory("example")
            let firstRun = try LiveProcess(["--state-dir", dir, "examples/persistent_sms.lua", "3"])
            let start = try #require(firstRun.waitForLine { $0 == "[  disabled ] Resend in 3s" })
            _ = firstRun.waitForLine { $0 == "[  disabled ] Resend in 2s" }
            firstRun.signal(SIGKILL)
            firstRun.wait()
            Thread.sleep(forTimeInterval: 0.4)
            let startedAt = firstRun.started.addingTimeInterval(start.at)
            let second = try LiveProcess(["--state-dir", dir, "examples/persistent_sms.lua", "3"])
            let continuing = try #require(second.waitForLine { $0.hasPrefix("continuing the stored cooldown: ") })
            let left = try #require(Double(continuing.text.split(separator: " ")[4]))
            let expected = 3 - second.started.addingTimeInterval(continuing.at).timeIntervalSince(startedAt)
            // Times are when this process read each line: on a busy machine that lags
            // by a few hundred ms. A restarted cooldown would be off by over 1.4 s.
            #expect(abs(left - expected) < 0.6, "continued with \(left) s left, expected \(expected)")
            #expect(second.wait() == 0)
            let enabled = try #require(second.lines.first { $0.text == "[Resend code] enabled" })
            let endedAfter = second.started.addingTimeInterval(enabled.at).timeIntervalSince(startedAt)
            #expect(abs(endedAfter - 3) < 0.6, "the cooldown ended \(endedAfter) s after it began")
            let third = try LiveProcess.run(["--state-dir", dir, "examples/persistent_sms.lua", "3"])
            #expect(third.lines == ["[Resend code] enabled (the stored cooldown ended while nothing ran)"])
        }
    }
}
