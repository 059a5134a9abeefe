import Foundation
import Testing

extension StoreFaults {
    /// `cdscript status` (one line for tmux or a prompt) and `cdscript watch --bar`
    /// (a stream in a status bar's protocol), parsed as the bars parse them.
    @Suite("cdscript status and watch --bar", .serialized)
    struct StatusBarTests {
        /// A store holding "tea" (running, 300 s), "held" (paused, 90 s) and "done" (finished).
        static func seeded(_ name: String) throws -> String {
            let dir = Scratch.directory(name)
            let seed = try LiveProcess.run(["--state-dir", dir, Scratch.script("""
                countdown.start{ id = "tea", seconds = 300, persist = true }
                countdown.start{ id = "held", seconds = 90, persist = true }:pause()
                countdown.start{ id = "done", seconds = 0.1, persist = true, on_done = function() os.exit(0) end }
                """)])
            #expect(seed.status == 0, "\(seed.stderr)")
            return dir
        }

        static func matches(_ text: String?, _ pattern: String) -> Bool {
            guard let text else { return false }
            return text.range(of: "^" + pattern + "$", options: .regularExpression) != nil
        }

        @Test("status without ids shows the running and paused countdowns, soonest end first, as the view shows the time; with ids those, finished ones too")
        func statusLine() throws {
            let dir = try Self.seeded("status")
            let all = try LiveProcess.run(["status", "--state-dir", dir])
            #expect(all.status == 0, "\(all.stderr)")
            #expect(all.lines.count == 1)
            #expect(Self.matches(all.lines.first, #"⏲ tea (5:00|4:5[0-9])  ⏸ held 1:30"#), "\(all.lines)")
            let chosen = try LiveProcess.run(["status", "--state-dir", dir, "done", "held"])
            #expect(chosen.status == 0, "\(chosen.stderr)")
            #expect(chosen.lines == ["⏹ done 0  ⏸ held 1:30"])
        }

        @Test("status --format fills every placeholder, countdown.format's tokens included, and writes braces doubled")
        func statusFormat() throws {
            let dir = try Self.seeded("status-format")
            let held = try LiveProcess.run(["status", "--state-dir", dir, "--format", "{id}|{state}|{progress}|{end}|{mm}:{ss}|{S}|{{x}}", "held"])
            #expect(held.lines == ["held|paused|0|-|01:30|90|{x}"], "\(held.stderr)")
            let tea = try LiveProcess.run(["status", "--state-dir", dir, "--format", "{state} {end}", "--separator", " / ", "tea", "done"])
            #expect(Self.matches(tea.lines.first, #"running ([0-9]{4}-[0-9]{2}-[0-9]{2} )?[0-2][0-9]:[0-5][0-9]:[0-5][0-9] / finished [0-9: -]+"#), "\(tea.lines)")
        }

        @Test("status exits 7 for an id that is not stored, after showing the others; 64 for an unknown placeholder; an empty line with nothing stored")
        func statusExits() throws {
            let dir = try Self.seeded("status-exit")
            let unknown = try LiveProcess.run(["status", "--state-dir", dir, "held", "nope"])
            #expect(unknown.status == 7)
            #expect(unknown.lines == ["⏸ held 1:30"])
            #expect(unknown.stderr.contains("no stored countdown has the id 'nope'"))
            let badFormat = try LiveProcess.run(["status", "--state-dir", dir, "--format", "{id} {lefft}"])
            #expect(badFormat.status == 64)
            #expect(badFormat.stderr.contains("unknown placeholder {lefft}"), "\(badFormat.stderr)")
            let empty = try LiveProcess.run(["status", "--state-dir", Scratch.directory("status-empty")])
            #expect(empty.status == 0)
            #expect(empty.lines == [""])
            let nothing = try LiveProcess.run(["status", "--state-dir", Scratch.directory("status-none"), "tea"])
            #expect(nothing.status == 7)
        }

        @Test("watch --bar waybar without ids writes one JSON object a line for the countdown shown first and a count of the others, again when its time shown moves and when another command pauses it")
        func waybar() throws {
            let dir = try Self.seeded("waybar")
            let bar = try LiveProcess(["watch", "--bar", "waybar", "--state-dir", dir])
            defer { bar.signal(SIGKILL); bar.wait() }
            func object(_ line: LiveProcess.Line?) throws -> [String: Any] {
                let text = try #require(line?.text)
                return try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
            }
            let first = try object(bar.waitForLine { _ in true })
            #expect(Self.matches(first["text"] as? String, #"⏲ tea (5:00|4:5[0-9])  \+1"#), "\(first)")
            #expect(first["class"] as? [String] == ["running"])
            #expect(first["percentage"] as? Int == 0)
            #expect((first["tooltip"] as? String)?.hasPrefix("tea: running, ") == true)
            #expect((first["tooltip"] as? String)?.hasSuffix("\n+1 more") == true, "\(first)")
            // The next second: one more line, with the time one second less.
            let next = try object(bar.waitForLine(timeout: 5) { $0 != bar.texts.first })
            #expect(Self.matches(next["text"] as? String, #"⏲ tea 4:5[0-9]  \+1"#), "\(next)")
            // Paused with more time left than "held", "tea" is no longer first.
            #expect(try LiveProcess.run(["pause", "tea", "--state-dir", dir]).status == 0)
            let paused = try object(bar.waitForLine(timeout: 5) { $0.contains(#""class":["paused"]"#) })
            #expect(paused["class"] as? [String] == ["paused"])
            #expect(paused["text"] as? String == "⏸ held 1:30  +1", "\(paused)")
            #expect(bar.texts.allSatisfy { !$0.contains("done") }, "a countdown finished before the bar started is not shown")
            bar.signal(SIGTERM)
            #expect(bar.wait() == 143)
        }

        @Test("watch --bar without ids writes about a line a second while 100 countdowns run, each ending at a different fraction of a second (one a countdown a second before)")
        func barRateWithManyCountdowns() throws {
            let dir = Scratch.directory("bar-rate")
            let seed = try LiveProcess.run(["--state-dir", dir, Scratch.script(
                #"for i = 1, 100 do countdown.start{ id = string.format("c%03d", i), seconds = 3600 + i / 100, persist = true } end; os.exit(0)"#)])
            #expect(seed.status == 0, "\(seed.stderr)")
            let bar = try LiveProcess(["watch", "--bar", "polybar", "--state-dir", dir])
            defer { bar.signal(SIGKILL); bar.wait() }
            #expect(bar.waitForLine { $0.hasPrefix("⏲ c001 ") } != nil, "\(bar.texts) \(bar.stderr)")
            let before = bar.lines.count
            Thread.sleep(forTimeInterval: 3)
            let written = bar.texts.dropFirst(before)
            // 3 s: 3 or 4 lines as the first one's second moves on (a busy machine may add one); 300 before.
            #expect(written.count <= 6, "\(written.count) lines in 3 s: \(written.suffix(10))")
            #expect(written.allSatisfy { $0.hasPrefix("⏲ c001 ") && $0.hasSuffix("  +99") }, "\(written.suffix(10))")
        }

        @Test("watch --bar i3bar writes the header, the infinite array's '[', then one array of blocks a line; red while critical, urgent once finished")
        func i3bar() throws {
            let dir = Scratch.directory("i3bar")
            let seed = try LiveProcess.run(["--state-dir", dir, Scratch.script(#"countdown.start{ id = "soon", seconds = 2, persist = true }; os.exit(0)"#)])
            #expect(seed.status == 0, "\(seed.stderr)")
            let bar = try LiveProcess(["watch", "--bar", "i3bar", "--state-dir", dir, "soon"])
            defer { bar.signal(SIGKILL); bar.wait() }
            #expect(bar.waitForLine(timeout: 10) { $0.contains("urgent") } != nil, "\(bar.texts)")
            let lines = bar.texts
            #expect(lines.first == #"{"click_events":true,"version":1}"#)
            let header = try #require(JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
            #expect(header["version"] as? Int == 1)
            #expect(lines.dropFirst().first == "[")
            let updates = lines.dropFirst(2)
            #expect(updates.first?.hasPrefix("[") == true)
            #expect(updates.dropFirst().allSatisfy { $0.hasPrefix(",[") })
            let arrays = try updates.map { line in
                let body = line.hasPrefix(",") ? String(line.dropFirst()) : line
                return try #require(JSONSerialization.jsonObject(with: Data(body.utf8)) as? [[String: Any]], "\(line)")
            }
            let firstBlock = try #require(arrays.first?.first)
            #expect(firstBlock["name"] as? String == "cdscript")
            #expect(firstBlock["instance"] as? String == "soon")
            #expect(Self.matches(firstBlock["full_text"] as? String, "⏲ soon [12]"))
            #expect(firstBlock["color"] as? String == "#FF5555", "within the default --critical of 60 s")
            let last = try #require(arrays.last?.first)
            #expect(last["full_text"] as? String == "⏹ soon 0")
            #expect(last["urgent"] as? Bool == true)
        }

        @Test("watch --bar polybar writes plain lines, and an empty line once nothing is left to show")
        func polybar() throws {
            let dir = try Self.seeded("polybar")
            let bar = try LiveProcess(["watch", "--bar", "polybar", "--format", "{left} {id}", "--state-dir", dir, "tea"])
            defer { bar.signal(SIGKILL); bar.wait() }
            let first = bar.waitForLine { _ in true }
            #expect(Self.matches(first?.text, #"(5:00|4:5[0-9]) tea"#), "\(bar.texts)")
            #expect(try LiveProcess.run(["cancel", "tea", "--state-dir", dir]).status == 0)
            #expect(bar.waitForLine(timeout: 5) { $0.isEmpty } != nil, "\(bar.texts)")
        }

        @Test("watch --bar makes no wake-up while nothing it shows changes (only a paused countdown)")
        func idleBar() throws {
            let dir = Scratch.directory("bar-idle")
            let seed = try LiveProcess.run(["--state-dir", dir, Scratch.script(#"countdown.start{ id = "held", seconds = 90, persist = true }:pause(); os.exit(0)"#)])
            #expect(seed.status == 0, "\(seed.stderr)")
            let bar = try LiveProcess(["watch", "--bar", "polybar", "--state-dir", dir])
            defer { bar.signal(SIGKILL); bar.wait() }
            #expect(bar.waitForLine { $0 == "⏸ held 1:30" } != nil, "\(bar.texts)")
            Thread.sleep(forTimeInterval: 0.3)
            let before = Self.contextSwitches(bar.pid)
            Thread.sleep(forTimeInterval: 3)
            let after = Self.contextSwitches(bar.pid)
            #expect(before > 0)
            #expect(after - before == 0, "\(after - before) wake-ups in 3 s while idle")
            #expect(bar.texts == ["⏸ held 1:30"])
        }

        @Test("watch --bar i3bar, which reads clicks from its input, makes no wake-up once that input has ended (no poll on a closed input)")
        func idleI3barAfterItsInputEnds() throws {
            let dir = Scratch.directory("i3bar-idle")
            let seed = try LiveProcess.run(["--state-dir", dir, Scratch.script(#"countdown.start{ id = "held", seconds = 90, persist = true }:pause(); os.exit(0)"#)])
            #expect(seed.status == 0, "\(seed.stderr)")
            // Its input is /dev/null: the end of the input at once.
            let bar = try LiveProcess(["watch", "--bar", "i3bar", "--state-dir", dir])
            defer { bar.signal(SIGKILL); bar.wait() }
            #expect(bar.waitForLine { $0.contains("held") } != nil, "\(bar.texts)")
            Thread.sleep(forTimeInterval: 0.3)
            let before = (switches: Self.contextSwitches(bar.pid), cpu: Self.cpuTicks(bar.pid))
            Thread.sleep(forTimeInterval: 3)
            let after = (switches: Self.contextSwitches(bar.pid), cpu: Self.cpuTicks(bar.pid))
            #expect(before.switches > 0)
            #expect(after.switches - before.switches == 0, "\(after.switches - before.switches) wake-ups in 3 s while idle")
            // A loop that polls a closed input never sleeps, so it makes no context
            // switch either: its CPU time tells (a tick is 10 ms; 3 s busy would be 300).
            #expect(after.cpu - before.cpu <= 5, "\(after.cpu - before.cpu) ticks of CPU in 3 s while idle")
            bar.signal(SIGTERM)
            #expect(bar.wait() == 143, "it ran on after its input ended")
            #expect(bar.stderr.isEmpty, "\(bar.stderr)")
        }

        /// User and system CPU time of `pid`, in clock ticks (/proc/PID/stat, fields 14 and 15).
        static func cpuTicks(_ pid: Int32) -> Int {
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            // The command name, in parentheses, may hold spaces: count from after it.
            guard let close = stat.lastIndex(of: ")") else { return 0 }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            // fields[0] is field 3 (the state), so fields 14 and 15 are [11] and [12].
            guard fields.count > 12 else { return 0 }
            return (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
        }

        /// Voluntary context switches of every thread of `pid`: each wait that
        /// returned counts one.
        static func contextSwitches(_ pid: Int32) -> Int {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
            return tasks.reduce(0) { sum, task in
                let status = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8)) ?? ""
                let line = status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") }
                return sum + (line.flatMap { Int($0.split(separator: "\t").last ?? "") } ?? 0)
            }
        }
    }
}
