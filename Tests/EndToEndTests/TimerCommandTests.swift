import Foundation
import Testing

/// `cdscript timer SPEC`: the built-in timer script, run by the real binary. stdout
/// is a pipe here, so the view prints plain lines (`id: text`), one second apart.
@Suite("cdscript timer counts down without a script")
struct TimerCommandTests {
    static func tempDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-timer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test("seconds: the digits each second, the bar, the end, exit 0")
    func seconds() throws {
        let result = try BinaryRunner.run(["timer", "3", "--speed", "20"])
        #expect(result.status == 0, "\(result.stderr)")
        let clock = result.lines.filter { $0.hasPrefix("clock: ") }
        #expect(clock == ["clock: 3", "clock: 2", "clock: 1", "clock: 0"])
        #expect(result.lines.contains("progress: 100%"))
        #expect(result.lines.last == "status: Time's up")
        #expect(!result.stdout.contains("\u{1B}") && !result.stdout.contains("\u{07}"), "plain lines carry no escapes and no bell")
    }

    @Test("durations: minutes and seconds, hours, days", arguments: [
        ("1m30.5s", "clock: 1:30", "clock: 1:29"),
        ("1h30m", "clock: 1:30:00", "clock: 1:29:59"),
        ("2d4h", "clock: 2d 04:00:00", "clock: 2d 03:59:59"),
    ])
    func durations(spec: String, first: String, second: String) throws {
        // SIGINT ends it early (exit 130): only the first lines matter.
        let result = try BinaryRunner.run(["timer", spec, "--speed", "10"], signal: SIGINT,
                                          signalWhen: { $0.components(separatedBy: "\n").filter { $0.hasPrefix("clock: ") }.count >= 2 })
        #expect(result.status == 130, "\(result.stderr)")
        let clock = result.lines.filter { $0.hasPrefix("clock: ") }
        #expect(clock.first == first)
        #expect(clock.dropFirst().first == second, "\(clock)")
    }

    @Test("tenths under an hour with --every 0.1, and the title above the digits")
    func tenthsAndTitle() throws {
        let result = try BinaryRunner.run(["timer", "0.5", "--every", "0.1", "--title", "Tea", "--speed", "5"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines.first == "title: Tea")
        #expect(result.lines.filter { $0.hasPrefix("clock: ") } == ["clock: 0.5", "clock: 0.4", "clock: 0.3", "clock: 0.2", "clock: 0.1", "clock: 0.0"])
    }

    @Test("a clock time and an ISO 8601 date are deadlines")
    func deadlines() throws {
        // A full minute 30 to 90 s ahead, at 600x: at most 0.15 s of real time. The
        // next minute alone could be a moment away, and pass while the binary
        // starts on a busy machine: then it means tomorrow, a day to count down.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let next = Date().addingTimeInterval(90)
        let hhmm = String(format: "%02d:%02d", calendar.component(.hour, from: next), calendar.component(.minute, from: next))
        let clockTime = try BinaryRunner.run(["timer", hhmm, "--speed", "600", "--every", "10"])
        #expect(clockTime.status == 0, "\(clockTime.stderr)")
        #expect(clockTime.lines.last == "status: Time's up")

        let formatter = ISO8601DateFormatter()
        let iso = formatter.string(from: Date().addingTimeInterval(5))
        let date = try BinaryRunner.run(["timer", iso, "--speed", "10"])
        #expect(date.status == 0, "\(date.stderr)")
        // Whole seconds in the text, and a loaded machine's start-up: 4 s left at most, 1 s at least.
        let first = date.lines.first { $0.hasPrefix("clock: ") }
        #expect(["clock: 4", "clock: 3", "clock: 2", "clock: 1"].contains(first ?? ""), "\(date.stdout)")
        #expect(date.lines.last == "status: Time's up")
    }

    @Test("a bad SPEC is bad usage with the forms it takes", arguments: [
        ("soon", "not a duration"), ("5m30", "not a duration"), ("25:00", "hour 25"), ("2020-01-01T00:00Z", "in the past"), ("0", "longer than 0"),
    ])
    func badSpec(spec: String, message: String) throws {
        let result = try BinaryRunner.run(["timer", spec])
        #expect(result.status == 64)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test("--exec runs the program with its arguments, no shell, when the time is up")
    func exec() throws {
        let dir = try Self.tempDirectory()
        let marker = dir.appendingPathComponent("rang").path
        let result = try BinaryRunner.run(["timer", "1", "--speed", "10", "--exec", "touch", marker])
        #expect(result.status == 0, "\(result.stderr)")
        var waited = 0.0
        while !FileManager.default.fileExists(atPath: marker) && waited < 5 {
            Thread.sleep(forTimeInterval: 0.05)
            waited += 0.05
        }
        #expect(FileManager.default.fileExists(atPath: marker))
    }

    @Test("--eject prints the script, and the ejected copy runs as the built-in does")
    func eject() throws {
        let ejected = try BinaryRunner.run(["timer", "--eject"])
        #expect(ejected.status == 0)
        let source = try String(contentsOf: BinaryRunner.packageRoot.appendingPathComponent("Sources/cdscript/BuiltinScripts/timer.lua"), encoding: .utf8)
        #expect(ejected.stdout == source)
        #expect(ejected.stdout.hasPrefix("-- cdscript timer"), "commented")
        let path = try BinaryRunner.script(ejected.stdout, name: "mytimer.lua")
        let own = try BinaryRunner.run(["run", "--speed", "20", path, "2", "--every", "1", "--title", "Mine"])
        let builtin = try BinaryRunner.run(["timer", "2", "--speed", "20", "--title", "Mine"])
        #expect(own.status == 0 && builtin.status == 0, "\(own.stderr) \(builtin.stderr)")
        #expect(own.stdout == builtin.stdout)
    }

    @Test("--id keeps the timer in the store: list shows it, completion offers it")
    func storedTimer() throws {
        let dir = try Self.tempDirectory()
        // Two ticks shown: the first tick's store write is done by the second.
        let run = try BinaryRunner.run(["timer", "--state-dir", dir.path, "--id", "tea", "300"], signal: SIGINT,
                                       signalWhen: { $0.components(separatedBy: "clock: ").count > 2 })
        #expect(run.status == 130, "\(run.stderr)")
        let list = try BinaryRunner.run(["list", "--state-dir", dir.path])
        #expect(list.stdout.contains("tea") && list.stdout.contains("running"), "\(list.stdout)")
        let ids = try BinaryRunner.run(["__complete-ids", "--state-dir", dir.path])
        #expect(ids.status == 0 && ids.lines == ["tea"])
        // Run again: it continues the stored countdown rather than starting 300 s anew.
        let again = try BinaryRunner.run(["timer", "--state-dir", dir.path, "--id", "tea", "300"], signal: SIGINT,
                                         signalWhen: { $0.contains("clock: ") })
        #expect(again.lines.first { $0.hasPrefix("clock: ") } != "clock: 5:00", "\(again.stdout)")
    }

    @Test("--overtime --id: a Pomodoro run past its end, quit and started again, goes on counting up from the store, Time's up and all")
    func storedOvertimeTimer() throws {
        let dir = try Self.tempDirectory()
        // 0.3 s long, quit 3 s in (a debug build's start took over a second on a loaded
        // 2-core machine): past its end, kept in the store.
        let first = try BinaryRunner.run(["timer", "--state-dir", dir.path, "--id", "pomo", "--overtime", "--every", "0.1", "0.3"],
                                         signal: SIGINT, signalAfter: 3.0)
        #expect(first.status == 130, "\(first.stderr)")
        #expect(first.lines.contains { $0.hasPrefix("clock: +") }, "\(first.stdout)")
        let list = try BinaryRunner.run(["list", "--state-dir", dir.path])
        #expect(list.stdout.contains("pomo") && list.stdout.contains("overtime  +"), "\(list.stdout)")
        let again = try BinaryRunner.run(["timer", "--state-dir", dir.path, "--id", "pomo", "--overtime", "--every", "0.1", "0.3"],
                                         signal: SIGINT, signalAfter: 2.0)
        // Its first clock is past the end already (not 0.3 s anew), and the end is said.
        let firstClock = again.lines.first { $0.hasPrefix("clock: ") }
        #expect(firstClock?.hasPrefix("clock: +") == true, "\(again.stdout)")
        #expect(again.lines.contains { $0.contains("Time's up") }, "\(again.stdout)")
        // --exec could not run once per end: refused, with what to drop.
        let exec = try BinaryRunner.run(["timer", "--state-dir", dir.path, "--id", "pomo", "--overtime", "3", "--exec", "true"])
        #expect(exec.status == 64 && exec.stderr.contains("drop --overtime or --exec"), "\(exec.stderr)")
    }
}

@Suite("cdscript timer and termdown's habits: pointers for its options, --outfile, --no-bell")
struct TimerTermdownTests {
    @Test("each of termdown's short options is refused (64) with the option cdscript timer has for it",
          arguments: [("-T", "--title TEXT"), ("-c", "--critical DURATION"), ("-t", "--text TEXT"), ("-b", "--blink"),
                      ("-B", "--no-bell"), ("-o", "--outfile PATH"), ("-q", "--quit-after DURATION"), ("-W", "--no-window-title")])
    func pointers(option: String, ours: String) throws {
        for arguments in [["timer", "5", option, "x"], ["timer", option + "3", "5"]] {
            let result = try BinaryRunner.run(arguments)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("\(option) is termdown's option; cdscript timer's is \(ours)"), "\(result.stderr)")
        }
    }

    @Test("--outfile holds the time the digits show, replaced whole (a link placed at its name is replaced, its target kept), both ways")
    func outfile() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-outfile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let ejected = dir.appendingPathComponent("mytimer.lua")
        try BinaryRunner.run(["timer", "--eject"]).stdout.write(to: ejected, atomically: true, encoding: .utf8)
        for (index, arguments) in [["--speed", "10", "timer", "2"], ["--speed", "10", ejected.path, "2"]].enumerated() {
            let target = dir.appendingPathComponent("precious-\(index).txt")
            try "keep me\n".write(to: target, atomically: true, encoding: .utf8)
            let out = dir.appendingPathComponent("time-\(index).txt")
            try FileManager.default.createSymbolicLink(atPath: out.path, withDestinationPath: target.path)
            let result = try BinaryRunner.run(arguments + ["--outfile", out.path, "--plain", "--every", "1"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try String(contentsOf: out, encoding: .utf8) == "0")
            #expect(try String(contentsOf: target, encoding: .utf8) == "keep me\n")
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".tmp-") }
            #expect(leftovers.isEmpty, "\(leftovers)")
        }
        let unwritable = try BinaryRunner.run(["--speed", "10", "timer", "1", "--plain", "--outfile", dir.path + "/no/such/folder/t.txt"])
        #expect(unwritable.status == 0)
        #expect(unwritable.stderr.components(separatedBy: "cdscript outfile: cannot write").count == 2, "said once: \(unwritable.stderr)")
    }
}

@Suite("cdscript timer in a terminal", .enabled(if: Tmux.isAvailable, "needs tmux (scripts/setup installs it)"))
struct TimerTerminalTests {
    @Test("--no-bell: the end rings no bell (the window title's sequences aside)")
    func noBell() throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-timer-\(UUID().uuidString).out")
        defer { try? FileManager.default.removeItem(at: log) }
        let tmux = try Tmux(["timer", "1", "--no-bell"], columns: 60, rows: 14, recording: log)
        defer { tmux.stop() }
        try tmux.waitUntil("the end of the run") { tmux.hasEnded }
        #expect(tmux.exitStatus == 0)
        let written = String(decoding: try Data(contentsOf: log), as: UTF8.self)
        let withoutTitles = written.replacingOccurrences(of: "\u{1B}\\][^\u{07}]*\u{07}", with: "", options: .regularExpression)
        #expect(written.contains("\u{1B}]0;0.0\u{07}"), "the run reached its end")
        #expect(!withoutTitles.contains("\u{07}"), "no bell")
    }

    @Test("big digits with tenths, the title, a progress bar; the bell at the end, exit 0, terminal restored")
    func terminal() throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-timer-\(UUID().uuidString).out")
        defer { try? FileManager.default.removeItem(at: log) }
        // Recorded from the first byte: the window title is written before the first frame.
        let tmux = try Tmux(["timer", "3", "--title", "Tea"], columns: 60, rows: 14, recording: log)
        defer { tmux.stop() }
        try tmux.waitForText("Tea")
        try tmux.waitUntil("a progress bar") { try tmux.screen().contains("░") && tmux.screen().contains("%") }
        let screen = try tmux.screen()
        // Big digits are five rows of block characters; "2.7" has a dot row at the bottom.
        #expect(screen.split(separator: "\n").filter { $0.contains("█") }.count >= 5, "\(screen)")
        try tmux.waitUntil("the end of the run") { tmux.hasEnded }
        #expect(tmux.exitStatus == 0)
        #expect(try tmux.display("#{alternate_on} #{cursor_flag}") == "0 1")
        // The bell is a BEL on its own, not the one that ends the window title's OSC sequence.
        let written = String(decoding: try Data(contentsOf: log), as: UTF8.self)
        let withoutTitles = written.replacingOccurrences(of: "\u{1B}\\][^\u{07}]*\u{07}", with: "", options: .regularExpression)
        #expect(written.contains("\u{1B}]0;3.0 · Tea\u{07}") && written.contains("\u{1B}]0;0.0 · Tea\u{07}"), "the window title: the time left and the title")
        #expect(withoutTitles.contains("\u{07}"), "the bell")
    }
}
