import Foundation
import Testing

/// Issue 39, "The timer ends when it says": the run ends at the deadline when
/// nothing asks to hold the end; `e` shows the end with seconds (and the date
/// when not today) on the countdown's own clock; `+` past the longest timer and
/// upper-case keys get a word, not a raw error or silence.
@Suite("cdscript timer ends when it says; its keys say what they do")
struct TimerEndsWhenItSaysTests {
    /// Runs the binary, stdout a pipe; returns the seconds from the line
    /// `marker` to the end of the process, and the output.
    static func secondsAfterLine(_ marker: String, _ arguments: [String]) throws -> (seconds: Double, status: Int32, stdout: String) {
        let process = Process()
        process.executableURL = BinaryRunner.binary
        process.arguments = arguments
        process.currentDirectoryURL = BinaryRunner.packageRoot
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        let lock = NSLock()
        nonisolated(unsafe) var text = ""
        nonisolated(unsafe) var seen: Date?
        // Read to the end of the pipe before looking: the process can exit before the
        // handler has been given its last lines (a loaded machine once lost the marker so).
        let drained = DispatchSemaphore(value: 0)
        out.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            lock.lock()
            defer { lock.unlock() }
            guard !data.isEmpty else {
                handle.readabilityHandler = nil
                drained.signal()
                return
            }
            text += String(decoding: data, as: UTF8.self)
            if seen == nil, text.contains(marker) { seen = Date() }
        }
        try process.run()
        process.waitUntilExit()
        let ended = Date()
        _ = drained.wait(timeout: .now() + 20)
        lock.lock()
        defer { lock.unlock() }
        return (seen.map { ended.timeIntervalSince($0) } ?? .infinity, process.terminationStatus, text)
    }

    @Test("stdout no terminal: the run ends at the deadline, not a second later", arguments: [
        ["timer", "0.5"], ["timer", "0.5s", "--plain"], ["timer", "0.5", "--text", "Tea"],
    ])
    func endsAtTheDeadline(arguments: [String]) throws {
        // The hold was a second of real time after the last line: a lower bound
        // that holds however busy the machine is. Ending now takes milliseconds.
        let run = try Self.secondsAfterLine("status: Time's up", arguments)
        #expect(run.status == 0)
        #expect(run.seconds < 0.8, "ended \(run.seconds) s after the last line: \(run.stdout)")
    }

    @Test("--quit-after still holds the end as long as asked")
    func quitAfterHolds() throws {
        let run = try Self.secondsAfterLine("status: Time's up", ["timer", "0.3", "--quit-after", "1"])
        #expect(run.status == 0)
        #expect(run.seconds >= 0.9, "ended \(run.seconds) s after the last line")
    }

    /// Keys from stdin, one a line, as the plain view reads them.
    static func keys(_ lines: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-keys-\(UUID().uuidString)")
        try lines.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    static func ends(_ result: BinaryRunner.Result) -> String? {
        result.lines.first { $0.hasPrefix("ends: ends ") }.map { String($0.dropFirst("ends: ends ".count)) }
    }

    @Test("e shows the end with seconds today, with the date when it is another day; E does what e does")
    func endTime() throws {
        let today = try BinaryRunner.run(["timer", "10m"], signal: SIGINT, stdinPath: try Self.keys("e\n"), signalWhen: { $0.contains("ends: ends ") })
        let shown = try #require(Self.ends(today), "\(today.stdout)")
        let end = Date().addingTimeInterval(600)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd"
        if formatter.string(from: end) == formatter.string(from: Date()) {
            #expect(shown.range(of: #"^\d\d:\d\d:\d\d$"#, options: .regularExpression) != nil, "\(shown)")
        }
        let later = try BinaryRunner.run(["timer", "400d"], signal: SIGINT, stdinPath: try Self.keys("E\n"), signalWhen: { $0.contains("ends: ends ") })
        let date = try #require(Self.ends(later), "E acts as e: \(later.stdout)")
        formatter.dateFormat = "EEE yyyy-MM-dd"
        let expected = formatter.string(from: Date().addingTimeInterval(400 * 86_400))
        #expect(date.hasPrefix(expected), "\(date)")
        #expect(date.range(of: #" \d\d:\d\d:\d\d$"#, options: .regularExpression) != nil, "\(date)")
    }

    @Test("under --speed, e shows the end on the countdown's clock")
    func endTimeUnderSpeed() throws {
        // 12 h at 3600x: the countdown's clock says it ends 12 h after the start;
        // the real clock, 12 s after it.
        // Real time between this line and the countdown's start is 3600 times longer on
        // its clock (a loaded machine took 0.05 s: 3 minutes), so the end may be that much
        // later; the real clock's end (12 s after the start) is never among the minutes.
        let started = Date()
        let result = try BinaryRunner.run(["timer", "12h", "--speed", "3600"], signal: SIGINT, stdinPath: try Self.keys("e\n"), signalWhen: { $0.contains("ends: ends ") })
        let shown = try #require(Self.ends(result), "\(result.stdout)")
        let elapsed = Date().timeIntervalSince(started)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "HH:mm"
        let end = started.addingTimeInterval(12 * 3600)
        let minutes = Int((elapsed * 3600 / 60).rounded(.up)) + 1
        #expect(elapsed < 11, "the run took \(elapsed) s: too long to tell the two clocks apart")
        let candidates = (0...minutes).map { formatter.string(from: end.addingTimeInterval(Double($0) * 60)) }
        #expect(candidates.contains { shown.hasSuffix($0 + shown.suffix(3)) }, "\(shown) is not about \(candidates)")
    }

    @Test("+ past the longest timer says so; R restarts; Q quits as q does (termdown's key), exit 8")
    func plusPastTheLongest() throws {
        let result = try BinaryRunner.run(["timer", "2305843000"], signal: SIGINT, signalAfter: 5, stdinPath: try Self.keys("+\nQ\n"))
        #expect(result.status == 8, "\(result.stdout)\(result.stderr)")
        #expect(result.lines.contains { $0.hasPrefix("note: cannot add 10 s: ") && $0.contains("longer than") }, "\(result.stdout)")
        #expect(!result.stderr.contains("error"), "\(result.stderr)")
        let restart = try BinaryRunner.run(["timer", "60"], signal: SIGINT, signalAfter: 2, stdinPath: try Self.keys("-\nR\n"))
        // 10 s off, then R starts it again from a minute: the last line shows about a
        // minute (however late the keys came), never the 50 s or less left without R.
        let clock = restart.lines.filter { $0.hasPrefix("clock: ") }
        #expect(clock.contains { $0.hasPrefix("clock: 4") }, "- took 10 s off: \(restart.stdout)")
        let last = clock.last.flatMap { Int($0.dropFirst("clock: ".count)) } ?? (clock.last == "clock: 1:00" ? 60 : 0)
        #expect(last > 50, "\(restart.stdout)")
    }
}
