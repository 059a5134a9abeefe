import Foundation
import Testing

extension StoreFaults {
    @Suite("cdscript list, clear and append with a stored overtime countdown past its end", .serialized)
    struct OvertimeListTests {
        @Test("list shows it as overtime with +time (JSON: remaining 0, overtime the seconds past the end); clear keeps it; append -5 is refused, exit 64; cancel removes it")
        func overtimePastItsEnd() throws {
            let dir = Scratch.directory("overtime")
            // The run ends 0.3 s after the overtime countdown's end: past it, still running.
            let seed = try LiveProcess.run(["--state-dir", dir, Scratch.script("""
                countdown.start{ id = "pomodoro", seconds = 0.1, every = 0.1, persist = true, overtime = true }
                countdown.start{ id = "plain", seconds = 3600, persist = true }
                countdown.start{ seconds = 0.4, on_done = function() os.exit(0) end }
                """)])
            #expect(seed.status == 0, "\(seed.stderr)")
            let table = try LiveProcess.run(["list", "--state-dir", dir])
            #expect(table.status == 0, "\(table.stderr)")
            #expect(table.lines.contains { $0.hasPrefix("pomodoro  overtime  +00:00:0") }, "\(table.lines)")
            let json = try LiveProcess.run(["list", "--json", "--state-dir", dir])
            let entries = try #require(JSONSerialization.jsonObject(with: Data(json.lines.joined(separator: "\n").utf8)) as? [[String: Any]])
            let byID = Dictionary(uniqueKeysWithValues: entries.map { ($0["id"] as? String ?? "", $0) })
            #expect(byID["pomodoro"]?["state"] as? String == "overtime")
            #expect(byID["pomodoro"]?["remaining"] as? Double == 0)
            #expect((byID["pomodoro"]?["overtime"] as? Double ?? 0) >= 0.3)
            #expect(byID["plain"]?["overtime"] is NSNull)
            let cleared = try LiveProcess.run(["clear", "--state-dir", dir])
            #expect(cleared.status == 0 && cleared.lines == ["removed 0 finished countdowns"], "\(cleared.lines) \(cleared.stderr)")
            let takeOff = try LiveProcess.run(["append", "--state-dir", dir, "pomodoro", "-5"])
            #expect(takeOff.status == 64)
            #expect(takeOff.stderr.contains("it is past its end, in overtime"), "\(takeOff.stderr)")
            let cancelled = try LiveProcess.run(["cancel", "--state-dir", dir, "pomodoro"])
            #expect(cancelled.status == 0)
            #expect(try LiveProcess.run(["list", "--state-dir", dir]).lines.count == 2)
        }
    }
}
