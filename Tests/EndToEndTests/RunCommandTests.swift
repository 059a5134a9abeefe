import Foundation
import Testing

@Suite("cdscript run: the real binary on short countdowns")
struct RunCommandTests {
    @Test("a 2 s cooldown into a pipe: one line per change of the view, the button enabled at the end, exit 0 after about 2 s")
    func smsCooldown() throws {
        let result = try BinaryRunner.run(["examples/sms_code.lua", "2"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.lines == [
            "status: Resend in 2s",
            "resend: [Resend code] disabled",
            "status: Resend in 1s",
            "status: Didn't get the code?",
            "resend: [Resend code] enabled",
        ])
        #expect(result.seconds > 1.9 && result.seconds < 3.5)
    }

    @Test("`run FILE` is the same as `FILE`, and script arguments reach arg and ...")
    func runSubcommandAndArguments() throws {
        let path = try BinaryRunner.script("""
            print(arg[0] ~= nil, arg[1], arg[2], select('#', ...), ...)
            """)
        let direct = try BinaryRunner.run([path, "one", "--two"])
        let viaRun = try BinaryRunner.run(["run", path, "one", "--two"])
        #expect(direct.status == 0)
        #expect(direct.stdout == "true\tone\t--two\t2\tone\t--two\n")
        #expect(viaRun.stdout == direct.stdout)
    }

    @Test("ticks are aligned to the deadline: 1.5 s every 0.1 gives 15 ticks in order, then done once")
    func tenthTicks() throws {
        let path = try BinaryRunner.script("""
            countdown.start{ seconds = 1.5, every = 0.1,
              on_tick = function(t) print(countdown.format(t, "{s}.{t}")) end,
              on_done = function(t, reason) print("done", reason, t.remaining) end }
            """)
        let result = try BinaryRunner.run([path])
        #expect(result.status == 0)
        let expected = (1...15).reversed().map { "\($0 / 10).\($0 % 10)" } + ["done\tfinished\t0.0"]
        #expect(result.lines == expected)
        #expect(result.seconds > 1.45 && result.seconds < 3)
    }

    @Test("print output reaches a pipe line by line, before the run ends")
    func lineBuffered() throws {
        let path = try BinaryRunner.script("""
            print("first")
            countdown.start{ seconds = 30 }
            """)
        // The signal goes once "first" has come through the pipe: the run is still on.
        let result = try BinaryRunner.run([path], signal: SIGTERM, signalWhen: { $0.contains("first\n") })
        #expect(result.stdout == "first\n")
        #expect(result.status == 143)
    }

    @Test("Ctrl-C ends the run cleanly with exit 130 (128 + SIGINT, as shells expect)")
    func interrupt() throws {
        let path = try BinaryRunner.script("countdown.start{ seconds = 30 }")
        let result = try BinaryRunner.run([path], signal: SIGINT, signalAfter: 0.3)
        #expect(result.status == 130)
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        #expect(result.seconds < 5)
    }

    @Test("--help and --version")
    func helpAndVersion() throws {
        let help = try BinaryRunner.run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE"))
        #expect(help.stdout.contains("Exit codes"))
        let version = try BinaryRunner.run(["--version"])
        #expect(version.status == 0)
        // The version, then the release of the linked Lua library (the one Debian ships: 5.4.x).
        let line = version.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(line.wholeMatch(of: /cdscript \d+\.\d+\.\d+ \(Lua 5\.4\.\d+\)/) != nil, "\(line)")
    }
}
