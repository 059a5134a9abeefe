import Foundation
import Testing

/// What the command line says at its edges: typos, unknown help topics, -v, bad budgets.
@Suite("Command-line messages point at what was meant")
struct CommandMessageTests {
    @Test("a mistyped command is not read as a missing script", arguments: [("lsit", "list"), ("tset", "test"), ("cancle", "cancel"), ("timr", "timer")])
    func typo(typed: String, meant: String) throws {
        let result = try BinaryRunner.run([typed])
        #expect(result.status == 64)
        #expect(result.stderr.contains("there is no script `\(typed)`"), "\(result.stderr)")
        #expect(result.stderr.contains("did you mean `cdscript \(meant)`?"), "\(result.stderr)")
    }

    @Test("a missing script that looks like no command is still a missing script (exit 4)")
    func missingScript() throws {
        let result = try BinaryRunner.run(["no-such-script.lua"])
        #expect(result.status == 4)
        #expect(!result.stderr.contains("did you mean"))
    }

    @Test("help with an unknown command exits 64 and names it; help with a known one still helps")
    func help() throws {
        let unknown = try BinaryRunner.run(["help", "no-such-command"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("no command `no-such-command`"), "\(unknown.stderr)")
        #expect(unknown.stderr.contains("timer"), "lists the commands")
        let typo = try BinaryRunner.run(["help", "lsit"])
        #expect(typo.stderr.contains("did you mean `list`?"))
        let known = try BinaryRunner.run(["help", "timer"])
        #expect(known.status == 0)
        #expect(known.stdout.contains("--eject"))
    }

    @Test("-v names the option it does not know and points at --version", arguments: ["-v", "-V"])
    func shortVersion(flag: String) throws {
        let result = try BinaryRunner.run([flag])
        #expect(result.status == 64)
        #expect(result.stderr.contains("'\(flag)'") && result.stderr.contains("--version"), "\(result.stderr)")
    }

    @Test("--budget -5 says what a budget must be", arguments: [["--budget", "-5", "x.lua"], ["run", "--budget", "-5", "x.lua"], ["test", "--budget", "-5"]])
    func negativeBudget(arguments: [String]) throws {
        let result = try BinaryRunner.run(arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains("--budget must be 0 (no limit) or a positive number of instructions, got -5"), "\(result.stderr)")
    }
}
