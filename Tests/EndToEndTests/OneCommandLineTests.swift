import Foundation
import Testing

/// Issue 39, "One command line": options mean the same before and after the
/// command's name, misspelt options get a suggestion, one duration grammar
/// everywhere, `--` ends the options, usage says what is required, help into a
/// full disk exits 74, and bad timer values are refused when parsed.
@Suite("One command line: options anywhere, one duration grammar, refusals when parsed")
struct OneCommandLineTests {
    @Test("--speed, --plain and --no-color before `timer` mean what they mean after it", arguments: [
        ["--speed", "20", "timer", "2"],
        ["--speed=20", "--plain", "timer", "2"],
        ["--no-color", "--speed", "20", "timer", "2", "--plain"],
    ])
    func optionsBeforeTheCommand(arguments: [String]) throws {
        let result = try BinaryRunner.run(arguments)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines.filter { $0.hasPrefix("clock: ") } == ["clock: 2", "clock: 1", "clock: 0"], "\(result.stdout)")
        #expect(!result.stderr.contains("there is no script"))
    }

    @Test("an option before `stopwatch` and `list` too; one the command lacks is named as unknown")
    func otherCommands() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-lead-\(UUID().uuidString)").path
        let list = try BinaryRunner.run(["--state-dir", dir, "list", "--json"])
        #expect(list.status == 0, "\(list.stderr)")
        let stopwatch = try BinaryRunner.run(["--plain", "stopwatch", "--quit-after", "0"])
        #expect(stopwatch.status == 0, "\(stopwatch.stderr)")
        #expect(stopwatch.lines.last == "total  0:00.0", "\(stopwatch.stdout)")
        let unknown = try BinaryRunner.run(["--speed", "5", "list"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("--speed"), "\(unknown.stderr)")
        #expect(!unknown.stderr.contains("there is no script"), "\(unknown.stderr)")
    }

    @Test("a misspelt option gets a suggestion", arguments: [
        (["--verison"], "'--version'"),
        (["list", "--jsno"], "'--json'"),
        (["timer", "5m", "--critcal", "30"], "'--critical'"),
        (["--sped", "60", "timer", "1"], "'--speed'"),
    ])
    func suggestion(arguments: [String], meant: String) throws {
        let result = try BinaryRunner.run(arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains("did you mean \(meant)?"), "\(result.stderr)")
    }

    @Test("append takes the timer's durations, negative ones too, and `--` before a negative one")
    func appendDurations() throws {
        let store = try ShellRun.storeWithCountdown()
        defer { try? FileManager.default.removeItem(atPath: store) }
        let more = try BinaryRunner.run(["append", "kept", "5m", "--state-dir", store])
        #expect(more.status == 0, "\(more.stderr)")
        #expect(more.stdout.contains("running, 00:14:5"), "\(more.stdout)")
        let tooLong = try BinaryRunner.run(["append", "kept", "-3000000000", "--state-dir", store])
        #expect(tooLong.status == 64, "\(tooLong.stderr)")
        let off = try BinaryRunner.run(["append", "kept", "-5m", "--state-dir", store])
        #expect(off.status == 0, "\(off.stderr)")
        #expect(off.stdout.contains("running, 00:09:5"), "\(off.stdout)")
        let terminated = try BinaryRunner.run(["append", "--state-dir", store, "kept", "--", "-30"])
        #expect(terminated.status == 0, "\(terminated.stderr)")
        #expect(terminated.stdout.contains("running, 00:09:2"), "\(terminated.stdout)")
        let bad = try BinaryRunner.run(["append", "kept", "5x", "--state-dir", store])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("DURATION must be a duration other than 0"), "\(bad.stderr)")
    }

    @Test("usage lines say a single value is required, not `[<x> ...]`")
    func usageLines() throws {
        let append = try BinaryRunner.run(["append", "--help"])
        #expect(append.stdout.contains("cdscript append <id> <duration>"), "\(append.stdout)")
        let timer = try BinaryRunner.run(["timer", "--help"])
        #expect(!timer.stdout.contains("[<spec> ...]") && !timer.stdout.contains("[<SPEC> ...]"), "\(timer.stdout)")
        #expect(timer.stdout.contains("<spec>"), "\(timer.stdout)")
    }

    @Test("--help, --version and a completion script into a full disk exit 74 with a message", arguments: [
        ["--help"], ["timer", "--help"], ["--version"], ["--generate-completion-script", "bash"],
    ])
    func helpIntoFullDisk(arguments: [String]) throws {
        let result = try ShellRun.run(arguments, stdout: .full)
        #expect(result.code == 74)
        #expect(result.stderr.contains("could not write the"), "\(result.stderr)")
        #expect(result.stderr.contains("No space left on device"), "\(result.stderr)")
    }

    @Test("`cdscript test --help` gives 74 for an unwritable report, as docs/testing.md does")
    func testHelpExitCodes() throws {
        let result = try BinaryRunner.run(["test", "--help"])
        let text = result.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("74 a report"), "\(result.stdout)")
        #expect(!text.contains("5 a report file"), "\(result.stdout)")
    }

    @Test("bad timer values are refused when parsed, with the range, exit 64", arguments: [
        (["timer", "1h", "--quit-after", "1e308"], "--quit-after must be a duration 0 or from 0.1 s to 2305843009 seconds"),
        (["timer", "1h", "--quit-after", "3000000000"], "--quit-after must be a duration 0 or from 0.1 s"),
        (["timer", "1h", "--quit-after", "0.05"], "--quit-after must be a duration 0 or from 0.1 s"),
        (["timer", "1h", "--quit-after", "0.000001"], "--quit-after must be a duration 0 or from 0.1 s"),
        (["timer", "1h", "--every", "1e308"], "--every must be a duration from 0.1 s to 2305843009 seconds"),
        (["timer", "1h", "--critical", "-1"], "--critical must be a duration from 0 s to"),
        (["stopwatch", "--every", "0.01"], "--every must be a duration from 0.1 s"),
    ])
    func badTimerValues(arguments: [String], message: String) throws {
        let result = try BinaryRunner.run(arguments + ["--speed", "1000"])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(!result.stdout.contains("clock:"), "refused before it ran: \(result.stdout)")
    }

    @Test("the timer's options take durations: --critical 1m, --every 2s, --quit-after 0.5s")
    func timerDurations() throws {
        let result = try BinaryRunner.run(["timer", "1m", "--critical", "1m", "--every", "30s", "--quit-after", "0.5s", "--speed", "600"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines.filter { $0.hasPrefix("clock: ") } == ["clock: 1:00", "clock: 30", "clock: 0"], "\(result.stdout)")
    }

    @Test("the Lua API takes the same durations: every, h:append, countdown.duration")
    func luaDurations() throws {
        let script = try BinaryRunner.script(#"""
            print(countdown.duration("1h30m"), countdown.duration("-5m"), countdown.duration(2))
            print(pcall(countdown.duration, "5x"))
            local h = countdown.start{ seconds = "10m", every = "1m" }
            h:append("-5m")
            print(math.floor(h:remaining() + 0.5))
            h:append("+1m30s")
            print(math.floor(h:remaining() + 0.5))
            print(pcall(h.append, h, "1e308"))
            h:cancel()
            print(countdown.fetch("nothing stored", { every = "1m" }))
            """#)
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-durations-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: state) }
        let result = try BinaryRunner.run(["--state-dir", state, script])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines.first == "5400.0\t-300.0\t2.0", "\(result.stdout)")
        #expect(result.lines.dropFirst().first?.contains("false\tcountdown.duration: \"5x\" is not a duration") == true, "\(result.stdout)")
        #expect(result.lines.dropFirst(2).first == "300", "\(result.stdout)")
        #expect(result.lines.dropFirst(3).first == "390", "\(result.stdout)")
        #expect(result.lines.dropFirst(4).first?.contains("append: 'seconds' must be a duration other than 0") == true, "\(result.stdout)")
        #expect(result.lines.dropFirst(5).first == "nil\tunknown", "\(result.stdout)")
    }
}
