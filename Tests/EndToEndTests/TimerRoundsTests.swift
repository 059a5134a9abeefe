import Foundation
import Testing

/// `cdscript timer SPEC --then DURATION --rounds N`, a pomodoro, run by the real
/// binary: the phases in turn, one action per phase end, a stored phase as
/// `status`, `status --json` and `list` show it, and the phase on the screen.
@Suite("cdscript timer --then --rounds runs a pomodoro")
struct TimerRoundsTests {
    @Test("the phases in turn, named with their round, and --exec-shell run once at every phase's end")
    func phasesAndActions() throws {
        let dir = try TimerCommandTests.tempDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let ends = dir.appendingPathComponent("ends").path
        // 3 s of work, 1 s of break, 2 rounds, at 10x: about 0.7 s.
        let result = try BinaryRunner.run(["timer", "3", "--then", "1", "--rounds", "2", "--speed", "10",
                                           "--exec-shell", "echo end >> '\(ends)'"])
        #expect(result.status == 0, "\(result.stderr)")
        let titles = result.lines.filter { $0.hasPrefix("title: ") }
        #expect(titles == ["title: work 1/2", "title: break 1/2", "title: work 2/2"], "\(result.lines)")
        #expect(result.lines.last == "status: Time's up")
        // The last end's command is waited for; the earlier ones ran meanwhile.
        let written = (try? String(contentsOfFile: ends, encoding: .utf8)) ?? ""
        #expect(written == "end\nend\nend\n", "one run per phase end (3 phases)")
    }

    @Test("--rounds without --then, --then without --rounds, 0 rounds, a clock time, --overtime: usage errors, exit 64", arguments: [
        (["25m", "--rounds", "4"], "--then and --rounds go together"),
        (["25m", "--then", "5m"], "--then and --rounds go together"),
        (["25m", "--then", "5m", "--rounds", "0"], "--rounds must be a whole number, 1 or more, got \"0\""),
        (["25m", "--then", "5m", "--rounds", "-2"], "--rounds must be a whole number, 1 or more, got \"-2\""),
        (["25m", "--then", "0", "--rounds", "2"], "--then"),
        (["20:00", "--then", "5m", "--rounds", "2"], "--rounds needs a duration SPEC"),
        (["25m", "--then", "5m", "--rounds", "2", "--overtime"], "--overtime with --rounds"),
    ])
    func refusals(arguments: [String], message: String) throws {
        let result = try BinaryRunner.run(["timer"] + arguments)
        #expect(result.status == 64, "\(result.stdout) \(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test("a stored pomodoro's phase is its title: status shows it after the id, --json and list carry it")
    func storedPhase() throws {
        let dir = try TimerCommandTests.tempDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let state = ["--state-dir", dir.path]
        let timer = Process()
        timer.executableURL = BinaryRunner.binary
        timer.arguments = ["timer", "25m", "--then", "5m", "--rounds", "4", "--id", "pomo", "--plain"] + state
        timer.standardOutput = FileHandle.nullDevice
        timer.standardError = FileHandle.nullDevice
        try timer.run()
        defer { if timer.isRunning { kill(timer.processIdentifier, SIGKILL) }; timer.waitUntilExit() }
        var status = try BinaryRunner.run(["status"] + state)
        let deadline = Date().addingTimeInterval(20)
        while !status.stdout.contains("pomo"), Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
            status = try BinaryRunner.run(["status"] + state)
        }
        #expect(status.stdout.range(of: #"^⏲ pomo · work 1/4 (25:00|24:[0-5]\d)\n$"#, options: .regularExpression) != nil, "\(status.stdout)")
        let json = try BinaryRunner.run(["status", "--json"] + state)
        let objects = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
        #expect(objects?.first?["title"] as? String == "work 1/4", "\(json.stdout)")
        let list = try BinaryRunner.run(["list"] + state)
        #expect(list.stdout.contains("work 1/4"), "\(list.stdout)")
        // Killed and started again, it goes on in the phase the store names.
        kill(timer.processIdentifier, SIGKILL)
        timer.waitUntilExit()
        let again = try BinaryRunner.run(["timer", "25m", "--then", "5m", "--rounds", "4", "--id", "pomo"] + state,
                                         signal: SIGINT, signalAfter: 5)
        #expect(again.lines.first == "title: work 1/4", "\(again.lines) \(again.stderr)")
    }

    @Test("on the full screen: the phase above the digits, and the next phase when one ends",
          .enabled(if: Tmux.isAvailable, "needs tmux (scripts/setup installs it)"))
    func onScreen() throws {
        // 25 minutes at 600x: 2.5 s of work, then the break.
        let tmux = try Tmux(["timer", "25m", "--then", "5m", "--rounds", "4", "--speed", "600"], columns: 80, rows: 16)
        defer { tmux.stop() }
        try tmux.waitForText("work 1/4")
        try tmux.waitForText("break 1/4", timeout: 20)
        try tmux.waitForText("work 2/4", timeout: 20)
        #expect(try !tmux.screen().contains("Time's up"), "no end before the last work")
    }
}
