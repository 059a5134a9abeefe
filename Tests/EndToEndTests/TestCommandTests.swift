import Foundation
import Testing

@Suite("cdscript test: the real binary on the behaviour spec and on failing fixtures")
struct TestCommandTests {
    static let fixtures = "Tests/ScriptTestingTests/Fixtures"

    @Test("`cdscript test` runs tests/ by default, exits 0, and ends with the totals")
    func behaviourSpec() throws {
        let result = try BinaryRunner.run(["test"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let last = try #require(result.lines.last)
        #expect(last.wholeMatch(of: /[1-9][0-9]* passed, 0 failed/) != nil, "\(last)")
        #expect(result.lines.contains("tests/sms_code_spec.lua"))
        // On the virtual clock: the specs cover hours of countdown time (a flash sale
        // days away, 60 s cooldowns) in seconds of CPU. A bound that holds on a busy
        // 2-core machine (the run took 13-15 s there) and still fails if they slept.
        #expect(result.seconds < 60)
    }

    @Test("a failing file: exit 1, FILE:LINE with expected and actual, totals with skips last")
    func failures() throws {
        let result = try BinaryRunner.run(["test", "\(Self.fixtures)/mixed.lua"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("  ✗ report <&> \"quotes\" # hash > fails\n      \(Self.fixtures)/mixed.lua:8: expected 1 to be 2\n      expected: 2\n      actual:   1\n"))
        #expect(result.lines.last == "2 passed, 1 failed, 2 skipped")
    }

    @Test("a file that does not load: exit 1, and it counts as failed")
    func loadError() throws {
        let result = try BinaryRunner.run(["test", "\(Self.fixtures)/syntax_error.lua"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("\(Self.fixtures)/syntax_error.lua:3:"))
        #expect(result.lines.last == "0 passed, 1 failed")
    }

    @Test("--tap writes TAP version 13 on stdout; --junit writes the XML file")
    func tapAndJUnit() throws {
        let junit = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-junit-\(UUID().uuidString).xml").path
        let result = try BinaryRunner.run(["test", "--tap", "--junit", junit, "\(Self.fixtures)/mixed.lua"])
        #expect(result.status == 1)
        #expect(result.lines.first == "TAP version 13")
        #expect(result.lines.contains("1..5"))
        #expect(result.lines.last == "# 2 passed, 1 failed, 2 skipped")
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites tests=\"5\" errors=\"0\" failures=\"1\" skip=\"2\">\n  <testsuite name=\"Run 1 of 1\""), "\(xml)")
    }

    @Test("a JUnit file that cannot be written: exit 74 with a message, after the report")
    func junitUnwritable() throws {
        let result = try BinaryRunner.run(["test", "--junit", "/nonexistent/dir/report.xml", "tests/cancel_spec.lua"])
        #expect(result.status == 74)
        #expect(result.stderr.hasPrefix("cdscript test: cannot write the JUnit report /nonexistent/dir/report.xml: "))
        #expect(result.lines.last == "4 passed, 0 failed")
    }

    @Test("--filter runs only the tests it names; files without one say nothing")
    func filter() throws {
        let result = try BinaryRunner.run(["test", "--filter", "resend button > enables", "tests/"])
        #expect(result.status == 0)
        #expect(result.lines == [
            "tests/sms_code_spec.lua",
            "  ✓ the resend button > enables itself exactly when the 60 s are over",
            "1 passed, 0 failed",
        ])
    }

    @Test("a missing path or a folder without test files: exit 4 with a message")
    func badPaths() throws {
        let missing = try BinaryRunner.run(["test", "no/such/folder"])
        #expect(missing.status == 4)
        #expect(missing.stderr == "cdscript test: no such file or folder: no/such/folder\n")
        let empty = try BinaryRunner.run(["test", Self.fixtures])
        #expect(empty.status == 4)
        #expect(empty.stderr.contains("no test files (*_test.lua, *_spec.lua)"))
    }

    @Test("a run that tested nothing fails: --filter that matches nothing, a file without tests (named)")
    func nothingRan() throws {
        let filtered = try BinaryRunner.run(["test", "--filter", "nomatch", "tests/"])
        #expect(filtered.status == 1)
        #expect(filtered.lines == ["0 passed, 0 failed"])
        #expect(filtered.stderr.hasPrefix("cdscript test: no test ran: --filter 'nomatch' matched none of the "), "\(filtered.stderr)")
        let script = try BinaryRunner.script("local x = 1", name: "plain.lua")
        let noTests = try BinaryRunner.run(["test", script])
        #expect(noTests.status == 1)
        #expect(noTests.lines == [script, "  (no tests: the file declares no it, test or spec)", "0 passed, 0 failed"])
        #expect(noTests.stderr == "cdscript test: no test ran: no it, test or spec in \(script)\n")
        let tagged = try BinaryRunner.run(["test", "--tags", "nosuchtag", "tests/cancel_spec.lua"])
        #expect(tagged.status == 1)
        #expect(tagged.stderr.contains("--tags nosuchtag matched none of the 4 tests declared"), "\(tagged.stderr)")
    }

    @Test("--memory-limit as for run: a test that doubles a string fails with the memory error, the next one runs")
    func memoryLimit() throws {
        let path = try BinaryRunner.script("""
            it("grows without end", function()
              local s = "x"
              while true do s = s .. s end
            end)
            it("runs after it", function() assert.is_true(true) end)
            """, name: "memory_spec.lua")
        let result = try BinaryRunner.run(["test", "--memory-limit", "32M", path])
        #expect(result.status == 1)
        #expect(result.stdout.contains("  ✗ grows without end\n"))
        #expect(result.stdout.contains("not enough memory"), "\(result.stdout)")
        #expect(result.stdout.contains("  ✓ runs after it"))
        #expect(result.lines.last == "1 passed, 1 failed")
        let bad = try BinaryRunner.run(["test", "--memory-limit", "lots", path])
        #expect(bad.status == 64)
    }

    @Test("what a test prints is kept up to 64 KiB, then cut with a note")
    func outputBounded() throws {
        let path = try BinaryRunner.script("""
            it("prints a lot, then fails", function()
              for i = 1, 100000 do print(string.rep("y", 99)) end
              error("failed")
            end)
            """, name: "chatty_spec.lua")
        let result = try BinaryRunner.run(["test", path])
        #expect(result.status == 1)
        #expect(result.stdout.utf8.count < 80_000)
        #expect(result.stdout.contains("... (output cut at 65536 bytes)"))
    }

    @Test("--plugin-path DIR: test files find plugins there, as with run")
    func pluginPath() throws {
        let plugins = try BinaryRunner.script("return { setup = function() return { greeting = 'hi from the plugin' } end }", name: "greeter.lua")
        let dir = (plugins as NSString).deletingLastPathComponent
        let spec = try BinaryRunner.script("""
            it("uses a plugin from --plugin-path", function()
              assert.are.equal("hi from the plugin", use("greeter").greeting)
            end)
            """, name: "greeter_spec.lua")
        let without = try BinaryRunner.run(["test", spec])
        #expect(without.status == 1)
        let with = try BinaryRunner.run(["test", "--plugin-path", dir, spec])
        #expect(with.status == 0, "\(with.stdout)\(with.stderr)")
    }

    @Test("os.time, os.date and os.clock in tests agree with lua5.4 under faketime at the same instant (TZ=UTC)")
    func hermeticTimeMatchesReference() throws {
        let tables = [
            "{year = 2027, month = 1, day = 1, hour = 0}", "{year = 2026, month = 13, day = 1}",
            "{year = 2027, month = 3, day = 0, hour = 25, min = -5, sec = 70}", "{year = 2000, month = 2, day = 29, hour = 12}",
            "{year = 1969, month = 7, day = 20, hour = 20, min = 17, sec = 40}", "{year = 2024, month = -1, day = 15}",
        ]
        let probe = """
            print(os.time(), os.date("%Y-%m-%d %H:%M:%S"), os.date("%c"), os.date("!%A %B %j"))
            for _, t in ipairs({ \(tables.joined(separator: ", ")) }) do
              local n = os.time(t)
              print(n, t.year, t.month, t.day, t.hour, t.min, t.sec, t.yday, t.wday)
            end
            """
        let reference = Process()
        reference.executableURL = URL(fileURLWithPath: "/usr/bin/faketime")
        // A frozen instant (no "@"): a loaded machine starting lua5.4 late must not move it.
        reference.arguments = ["-f", "2027-01-01 00:01:30", "/usr/bin/lua5.4", "-e", probe]
        reference.environment = ["TZ": "UTC", "PATH": "/usr/bin:/bin"]
        let pipe = Pipe()
        reference.standardOutput = pipe
        try reference.run()
        let expected = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        reference.waitUntilExit()
        #expect(expected.hasPrefix("1798761690\t2027-01-01 00:01:30\t"), "\(expected)")
        #expect(expected.split(separator: "\n").count == 1 + tables.count, "\(expected)")
        let spec = try BinaryRunner.script("""
            it("prints what lua5.4 printed", function()
              clock.advance(90)
              assert.are.equal(90, os.clock())
              local lines = {}
              local env = setmetatable({ print = function(...) lines[#lines + 1] = table.concat({ ... }, "\\t") end }, { __index = _G })
              local chunk = assert(load([==[\(probe)]==], "probe", "t", env))
              chunk()
              assert.are.equal([==[\(expected)]==], table.concat(lines, "\\n") .. "\\n")
            end)
            """, name: "reference_spec.lua")
        let result = try BinaryRunner.run(["test", spec])
        #expect(result.status == 0, "\(result.stdout)")
    }

    @Test("the same files give the same output")
    func deterministic() throws {
        let first = try BinaryRunner.run(["test", "--tap", "tests/", "\(Self.fixtures)/failing_assertions.lua"])
        let second = try BinaryRunner.run(["test", "--tap", "tests/", "\(Self.fixtures)/failing_assertions.lua"])
        #expect(first.status == 1)
        #expect(first.stdout == second.stdout)
    }

    @Test("`cdscript FILE.lua` still runs a script; a script named `test` runs with `cdscript run test`")
    func scriptsStillRun() throws {
        let path = try BinaryRunner.script("print('ran', arg[0] ~= nil)", name: "test")
        let direct = try BinaryRunner.run(["run", path])
        #expect(direct.status == 0)
        #expect(direct.stdout == "ran\ttrue\n")
        let plain = try BinaryRunner.run([try BinaryRunner.script("print('plain')")])
        #expect(plain.stdout == "plain\n")
    }
}

@Suite("cdscript run --speed N: time flows N times faster")
struct SpeedTests {
    @Test("a --speed run keeps persistent countdowns in memory: the store is never created")
    func speedLeavesTheStoreAlone() throws {
        let path = try BinaryRunner.script("""
            countdown.start{ id = "demo", seconds = 2, persist = true,
              on_done = function(_, reason) print("done", reason) end }
            local h, why = countdown.fetch("nothing-stored")
            print(h, why)
            """)
        let stateDir = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("state").path
        let result = try BinaryRunner.run(["run", "--speed", "20", "--state-dir", stateDir, path])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.lines == ["nil\tunknown", "done\tfinished"])
        #expect(!FileManager.default.fileExists(atPath: stateDir + "/state.sqlite"))
        #expect(result.seconds < 2)
    }

    @Test("a 30 s cooldown at --speed 30 takes about a second and prints every tick")
    func fast() throws {
        let result = try BinaryRunner.run(["run", "--speed", "30", "examples/sms_code.lua", "30"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        // Plain mode (stdout is a pipe): the label's 30 texts, the button's two states,
        // and the label's last text.
        #expect(result.lines.count == 33)
        #expect(result.lines.first == "status: Resend in 30s")
        #expect(result.lines.contains("status: Resend in 1s"))
        #expect(result.lines.last == "resend: [Resend code] enabled")
        #expect(result.seconds > 0.9 && result.seconds < 3, "took \(result.seconds) s")
    }

    @Test("--speed works before the script without `run`")
    func defaultSubcommand() throws {
        let result = try BinaryRunner.run(["--speed", "10", "examples/sms_code.lua", "3"])
        #expect(result.status == 0)
        #expect(result.lines.count == 6)
        #expect(result.seconds > 0.25 && result.seconds < 2, "took \(result.seconds) s")
    }

    @Test("a speed that is not a finite number > 0 is bad usage: exit 64 with a message")
    func invalid() throws {
        for speed in ["0", "-2", "nan", "inf", "fast"] {
            let result = try BinaryRunner.run(["run", "--speed", speed, "examples/sms_code.lua"])
            #expect(result.status == 64, "--speed \(speed)")
            #expect(result.stderr.contains("--speed") || result.stderr.contains("speed"), "--speed \(speed): \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
    }
}
