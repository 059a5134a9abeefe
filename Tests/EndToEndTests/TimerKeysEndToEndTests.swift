import Foundation
import Testing

/// `cdscript timer` and `cdscript stopwatch` in a real terminal (tmux): the keys,
/// the window title, the warning style and the end screen.
@Suite("cdscript timer's keys and end screen in a terminal", .enabled(if: Tmux.isAvailable, "needs tmux (scripts/setup installs it)"))
struct TimerKeysEndToEndTests {
    /// The window title as tmux keeps it for the pane.
    static func title(_ tmux: Tmux) throws -> String { try tmux.display("#{pane_title}") }

    @Test("+, -, Space, e, r act on the timer; the title shows the time left; q with the timer running exits 8")
    func keys() throws {
        let tmux = try Tmux(["timer", "60", "--title", "Tea"], columns: 60, rows: 14)
        defer { tmux.stop() }
        try tmux.waitUntil("the time left in the title") { try Self.title(tmux).hasSuffix(" · Tea") && Self.title(tmux).hasPrefix("59.") }
        try tmux.send("+")
        try tmux.waitUntil("10 s more") { try Self.title(tmux).hasPrefix("1:09.") }
        try tmux.send("-")
        try tmux.send("-")
        try tmux.waitUntil("20 s less") { try Self.title(tmux).hasPrefix("49.") }
        try tmux.send("Space")
        try tmux.waitForText("paused — Space to resume")
        let paused = try Self.title(tmux)
        Thread.sleep(forTimeInterval: 0.5)
        #expect(try Self.title(tmux) == paused, "the time stands still while paused")
        try tmux.send("e")
        try tmux.waitForText("ends when resumed")
        try tmux.send("Space")
        try tmux.waitUntil("the end as a clock time") { try tmux.screen().range(of: #"ends \d\d:\d\d"#, options: .regularExpression) != nil }
        try tmux.send("r")
        try tmux.waitUntil("the original length again") { try Self.title(tmux).hasPrefix("59.") }
        try tmux.send("q")
        try tmux.waitUntil("the end of the run") { tmux.hasEnded }
        #expect(tmux.exitStatus == 8)
    }

    @Test("Space on a fixed deadline says it cannot pause it")
    func spaceOnDeadline() throws {
        let deadline = ISO8601DateFormatter().string(from: Date().addingTimeInterval(120))
        let tmux = try Tmux(["timer", deadline], columns: 60, rows: 14)
        defer { tmux.stop() }
        try tmux.waitUntil("the progress bar") { try tmux.screen().contains("%") }
        try tmux.send("Space")
        try tmux.waitForText("cannot pause a fixed deadline")
        #expect(try !tmux.screen().contains("paused — Space"))
    }

    @Test("the window title is put back at the end; --no-window-title leaves it alone")
    func titleRestored() throws {
        let tmux = try Tmux(["timer", "1", "--title", "Tea"], columns: 60, rows: 14)
        defer { tmux.stop() }
        try tmux.waitUntil("the end of the run") { tmux.hasEnded }
        #expect(tmux.exitStatus == 0)
        let after = try Self.title(tmux)
        #expect(!after.contains("Tea"), "\(after)")
        let alone = try Tmux(["timer", "3", "--title", "Tea", "--no-window-title"], columns: 60, rows: 14)
        defer { alone.stop() }
        try alone.waitForText("Tea")
        #expect(try !Self.title(alone).contains("Tea"))
    }

    @Test("--critical draws the last seconds red and bold")
    func critical() throws {
        let tmux = try Tmux(["timer", "3", "--critical", "2", "--wait"], columns: 60, rows: 14)
        defer { tmux.stop() }
        try tmux.waitUntil("the digits drawn plain first") { try tmux.screen().contains("█") && Self.title(tmux).hasPrefix("2.") }
        #expect(try !tmux.screen(escapes: true).contains("\u{1B}[31m"))
        try tmux.waitUntil("red bold digits", timeout: 5) { try tmux.screen(escapes: true).contains("\u{1B}[1m\u{1B}[31m█") }
    }

    @Test("--text shows big letters at the end; --wait keeps the screen until a key; exit 0")
    func textAndWait() throws {
        let tmux = try Tmux(["timer", "1", "--text", "Done", "--wait"], columns: 60, rows: 16)
        defer { tmux.stop() }
        try tmux.waitForText("press a key")
        let screen = try tmux.screen()
        #expect(screen.contains("██  ███ █  █ ███"), "\(screen)")
        Thread.sleep(forTimeInterval: 1.5)
        #expect(!tmux.hasEnded, "still there after the usual second")
        try tmux.send("x")
        try tmux.waitUntil("the end of the run") { tmux.hasEnded }
        #expect(tmux.exitStatus == 0)
    }

    @Test("--quit-after N ends the run N seconds after the end")
    func quitAfter() throws {
        let tmux = try Tmux(["timer", "1", "--wait", "--quit-after", "2"], columns: 60, rows: 14)
        defer { tmux.stop() }
        try tmux.waitForText("press a key")
        let ended = Date()
        try tmux.waitUntil("the end of the run") { tmux.hasEnded }
        #expect(Date().timeIntervalSince(ended) > 1.0)
        #expect(tmux.exitStatus == 0)
    }

    @Test("--overtime counts up past the end in the warning style")
    func overtime() throws {
        let tmux = try Tmux(["timer", "1", "--overtime", "--title", "Talk"], columns: 60, rows: 14)
        defer { tmux.stop() }
        try tmux.waitUntil("time past the end in the title") { try Self.title(tmux).hasPrefix("+0:01.") }
        #expect(try Self.title(tmux).hasSuffix(" · Talk"))
        #expect(try tmux.screen(escapes: true).contains("\u{1B}[1m\u{1B}[31m"))
        #expect(try tmux.screen().contains("Time's up"))
        try tmux.send("q")
        try tmux.waitUntil("the end of the run") { tmux.hasEnded }
    }

    @Test("the stopwatch: l records laps below the clock, q prints them after the terminal is given back")
    func stopwatch() throws {
        let tmux = try Tmux(["stopwatch", "--title", "Run"], columns: 60, rows: 16)
        defer { tmux.stop() }
        try tmux.waitUntil("a second in the title") { try Self.title(tmux).hasPrefix("1.") }
        try tmux.send("l")
        try tmux.waitForText("lap 1  0:01.")
        try tmux.send("l")
        try tmux.waitForText("lap 2  0:00.")
        try tmux.send("Space")
        try tmux.waitForText("paused — Space to resume")
        try tmux.send("q")
        try tmux.waitUntil("the end of the run") { tmux.hasEnded }
        #expect(tmux.exitStatus == 0)
        let lines = try tmux.lines()
        #expect(lines.contains { $0.hasPrefix("lap 1  0:01.") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("lap 2  0:00.") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("total  0:01.") }, "\(lines)")
        #expect(try tmux.display("#{alternate_on}") == "0")
    }

    @Test("the stopwatch's r resets it to zero and empties the laps")
    func stopwatchReset() throws {
        let tmux = try Tmux(["stopwatch"], columns: 60, rows: 16)
        defer { tmux.stop() }
        try tmux.waitUntil("a second in the title") { try Self.title(tmux).hasPrefix("1.") }
        try tmux.send("l")
        try tmux.waitForText("lap 1")
        try tmux.send("r")
        try tmux.waitUntil("back to zero") { try Self.title(tmux).hasPrefix("0.") && !tmux.screen().contains("lap 1") }
    }

    @Test("the ejected timer in a terminal: --no-color after the SPEC draws the warning style without red")
    func ejectedNoColor() throws {
        let ejected = try BinaryRunner.run(["timer", "--eject"])
        let path = try BinaryRunner.script(ejected.stdout, name: "mytimer.lua")
        for arguments in [[path, "30", "--critical", "60", "--no-color"], [path, "30", "--critical", "60"]] {
            let tmux = try Tmux(arguments, columns: 60, rows: 14)
            defer { tmux.stop() }
            try tmux.waitUntil("the digits") { try tmux.screen().contains("█") }
            let red = try tmux.screen(escapes: true).contains("31m")
            #expect(red == !arguments.contains("--no-color"), "\(arguments)")
        }
    }

    @Test("the ejected timer in a terminal: --plain after the SPEC prints lines there too")
    func ejectedPlain() throws {
        let ejected = try BinaryRunner.run(["timer", "--eject"])
        let path = try BinaryRunner.script(ejected.stdout, name: "mytimer.lua")
        let tmux = try Tmux([path, "2", "--plain", "--title", "Tea"], columns: 60, rows: 14)
        defer { tmux.stop() }
        try tmux.waitUntil("the end of the run") { tmux.hasEnded }
        #expect(tmux.exitStatus == 0)
        let lines = try tmux.lines()
        #expect(lines.prefix(3) == ["title: Tea", "clock: 2", "progress: 0%"], "\(lines)")
    }
}
