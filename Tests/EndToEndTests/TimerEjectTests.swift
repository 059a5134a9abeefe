import Foundation
import Testing

/// `cdscript timer` and `cdscript stopwatch` are their ejected scripts: every
/// option gives the same output run either way (stdout is a pipe: plain lines).
@Suite("The ejected timer and stopwatch are the built-in ones")
struct TimerEjectTests {
    static func ejected(_ command: String) throws -> String {
        let ejected = try BinaryRunner.run([command, "--eject"])
        #expect(ejected.status == 0)
        return try BinaryRunner.script(ejected.stdout, name: "my\(command).lua")
    }

    @Test("each option: the built-in timer and `cdscript --speed N SCRIPT SPEC OPTION` print the same", arguments: [
        [], ["--plain"], ["--no-color"], ["--every", "0.5"], ["--title", "Tea"], ["--critical", "1"], ["--text", "Done"],
        ["--blink"], ["--wait"], ["--quit-after", "0"], ["--no-window-title"], ["--id", "tea"], ["--exec", "true"],
        ["--title=Tea", "--every=0.5"], ["--then", "1", "--rounds", "2"],
    ])
    func sameOutput(options: [String]) throws {
        let path = try Self.ejected("timer")
        let own = try BinaryRunner.run(["--speed", "20", path, "2"] + options)
        let builtin = try BinaryRunner.run(["timer", "2", "--speed", "20"] + options)
        #expect(own.status == 0 && builtin.status == 0, "\(own.stderr) \(builtin.stderr)")
        #expect(own.stdout == builtin.stdout, "\(own.stdout)\n---\n\(builtin.stdout)")
        #expect(builtin.lines.last == "status: Time's up" || builtin.lines.last == "status: Time's up — press a key")
    }

    @Test("the ejected timer prints one line a second when the view prints lines, as the built-in does")
    func oneLineASecond() throws {
        let path = try Self.ejected("timer")
        let own = try BinaryRunner.run(["--plain", "--speed", "20", path, "3"])
        #expect(own.status == 0, "\(own.stderr)")
        // One line per whole second, counting down from 3 to 0. A stall longer than a
        // second of this sped-up clock (50 ms) is caught up in one step, so a loaded
        // machine may skip a second between the first and the last; never more lines.
        let clocks = own.lines.filter { $0.hasPrefix("clock: ") }.compactMap { Int($0.dropFirst("clock: ".count)) }
        #expect(clocks.first == 3 && clocks.last == 0, "\(own.stdout)")
        #expect(clocks == clocks.sorted(by: >) && Set(clocks).count == clocks.count, "\(own.stdout)")
        let after = try BinaryRunner.run(["--speed", "600", path, "25m", "--plain"], signal: SIGINT,
                                         signalWhen: { $0.contains("clock: ") })
        #expect(after.status == 130, "--plain after the SPEC is the script's: \(after.stderr)")
        #expect(after.lines.first == "clock: 25:00", "\(after.stdout)")
    }

    @Test("cdscript's own options given to the ejected script say where they belong")
    func hostOptions() throws {
        let path = try Self.ejected("timer")
        let result = try BinaryRunner.run([path, "5", "--speed", "10"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--speed is an option of cdscript itself: give it before the script's name"), "\(result.stderr)")
    }

    @Test("an ejected timer and stopwatch point every option of cdscript run they do not take before the script's name (the list read from run --help)")
    func everyHostOption() throws {
        let help = try BinaryRunner.run(["run", "--help"]).stdout
        let options = Set(help.split(separator: "\n").compactMap { line -> String? in
            guard let match = line.firstMatch(of: /^  (?:-[a-z], )?(--[a-z-]+|-[a-z])\b/) else { return nil }
            return String(match.1)
        })
        // What the scripts take themselves, and what every command has.
        let hostOptions = options.subtracting(["--plain", "--no-color", "--version", "--help"])
        #expect(hostOptions.count >= 12 && hostOptions.contains("-e") && hostOptions.contains("--allow-store"), "\(options.sorted())")
        for name in ["timer", "stopwatch"] {
            let path = try Self.ejected(name)
            let source = try String(contentsOfFile: path, encoding: .utf8)
            let table = try #require(source.firstMatch(of: /local HOST = \{([^}]*)\}/)).1
            let listed = Set(table.matches(of: /\["(-[a-z-]+)"\] = true/).map { String($0.1) })
            #expect(listed == hostOptions, "\(name).lua's HOST: \(listed.sorted()); run's: \(hostOptions.sorted())")
            for option in hostOptions.sorted() {
                let result = try BinaryRunner.run(name == "timer" ? [path, "5", option] : [path, option])
                #expect(result.status == 2, "\(name) \(option): \(result.stderr)")
                #expect(result.stderr.contains("\(option) is an option of cdscript itself: give it before the script's name"), "\(name) \(option): \(result.stderr)")
            }
        }
    }

    @Test("--overtime: past the end the clock counts up, both ways")
    func overtime() throws {
        let path = try Self.ejected("timer")
        // Ended by --quit-after (not a signal after so long: on a busy machine the run
        // had barely started), at 5x: a stall skips a second now and then, so the
        // seconds past the end are checked to grow, not to be each there.
        for arguments in [["--speed", "5", path, "1", "--overtime", "--quit-after", "3"],
                          ["timer", "1", "--overtime", "--quit-after", "3", "--speed", "5"]] {
            let result = try BinaryRunner.run(arguments, signal: SIGINT, signalAfter: 20)
            #expect(result.status == 0, "\(result.stderr)")
            let clock = result.lines.filter { $0.hasPrefix("clock: ") }
            #expect(Array(clock.prefix(2)) == ["clock: 1", "clock: 0"], "\(result.stdout)")
            let past = clock.dropFirst(2).compactMap { line in line.hasPrefix("clock: +0:0") ? Int(line.dropFirst("clock: +0:0".count)) : nil }
            #expect(past.count == clock.count - 2 && past.count >= 2 && past == past.sorted() && past.last == 3, "\(result.stdout)")
        }
    }

    @Test("--overtime --quit-after: the run ends that long after the end, having counted up until then (exit 0), both ways")
    func overtimeQuitAfter() throws {
        let path = try Self.ejected("timer")
        for arguments in [["--speed", "20", path, "1", "--overtime", "--quit-after", "2"],
                          ["timer", "1", "--overtime", "--quit-after", "2", "--speed", "20"]] {
            // 3 s on the timer's clock: 0.15 s at 20x. The signal is only a safety
            // net: before the fix the run never ended.
            let result = try BinaryRunner.run(arguments, signal: SIGINT, signalAfter: 10)
            #expect(result.status == 0, "\(arguments): \(result.stdout)\(result.stderr)")
            let clock = result.lines.filter { $0.hasPrefix("clock: ") }
            #expect(clock.contains("clock: +0:01") && !clock.contains("clock: +0:03"), "\(result.stdout)")
        }
    }

    @Test("--critical and --quit-after refuse what is no number of seconds")
    func badValues() throws {
        let result = try BinaryRunner.run(["timer", "5", "--critical", "-1"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--critical must be a duration from 0 s to"), "\(result.stderr)")
    }

    @Test("the stopwatch: laps from keys, printed at q; ejected, the same")
    func stopwatch() throws {
        let keys = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-keys-\(UUID().uuidString)")
        try "l\nl\nq\n".write(to: keys, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: keys) }
        let ejected = try BinaryRunner.run(["stopwatch", "--eject"])
        let source = try String(contentsOf: BinaryRunner.packageRoot.appendingPathComponent("Sources/cdscript/BuiltinScripts/stopwatch.lua"), encoding: .utf8)
        #expect(ejected.stdout == source)
        let path = try Self.ejected("stopwatch")
        for arguments in [["stopwatch", "--title", "Run"], [path, "--title", "Run"]] {
            let result = try BinaryRunner.run(arguments, stdinPath: keys.path)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.lines.first == "title: Run")
            #expect(result.lines.contains("clock: 0"))
            // Lap lines while it runs, then on q the laps and the total.
            let laps = result.lines.filter { $0.range(of: #"^lap [12]  0:00\.\d  0:00\.\d$"#, options: .regularExpression) != nil }
            #expect(laps.count == 2, "\(result.stdout)")
            #expect(result.lines.last?.hasPrefix("total  0:00.") == true, "\(result.stdout)")
        }
    }
}
