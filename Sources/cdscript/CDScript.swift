import CommandEnding
import ArgumentParser
import EventLoop
import FoundationEssentials
import LuaHost
#if canImport(Glibc)
import Glibc
#endif
import StoreViews
import CommandLineWords

/// The command line. The `cdscript` executable (Sources/cdscript-main) calls
/// `CommandLineEntry.main()`, and so does `cdscript-serve`, with the web server
/// installed first (`ServeWeb.start`).
struct CDScript: ParsableCommand {
    static let version = "0.1.0"

    /// What `cdscript --version` prints.
    static let versionText = "cdscript \(version) (\(LuaHost.luaRelease))"

    static let configuration = CommandConfiguration(
        commandName: "cdscript",
        abstract: "Run Lua countdown scripts on one shared scheduler.",
        discussion: """
            `cdscript FILE.lua [ARGS...]` is the same as `cdscript run FILE.lua [ARGS...]`.
            `cdscript test [PATH...]` runs test files on a virtual clock (a script named
            `test` runs with `cdscript run test`).
            Exit codes: 0 success (the run ended by itself), 1 a hook raised an error,
            2 the script raised an error, 3 syntax error, 4 unreadable script, 5 system
            error, 6 countdown store unusable, 7 no such stored countdown, 8 quit with
            `q` while countdowns ran, 9 `check` found the store damaged, 10 `start`: the id is taken,
            11 `serve`: the listen address is taken, 12 a change Redis's replicas did not
            confirm in time (it is on the primary), 13 `serve`: a --tls-cert/--tls-key file is
            unusable, 14 `serve`, `run --serve`: cdscript-serve is missing or cannot be
            executed, 64 bad usage, 74 output could not be written,
            126/127 --exec program not executable/not found, 129 SIGHUP, 130 Ctrl-C,
            141 output pipe closed, 143 SIGTERM.
            """,
        version: versionText,
        subcommands: [RunCommand.self, TestCommand.self, ListCommand.self, CancelCommand.self, ClearCommand.self, PluginsCommand.self, TimerCommand.self, StopwatchCommand.self, NewCommand.self, StartCommand.self, AppendCommand.self, PauseCommand.self, ResumeCommand.self, WatchCommand.self, StatusCommand.self, ServeCommand.self, CheckCommand.self, CompleteIDsCommand.self],
        defaultSubcommand: RunCommand.self
    )
}

extension CDScript {
    /// ArgumentParser's own entry, with the hints of `CommandHints` first.
    static func main() {
        let words = Array(CommandLine.arguments.dropFirst())
        // Answered without ArgumentParser, whose parse costs more than the answer
        // (docs/performance.md, "Linked as one file"): `--version` alone ...
        if words == ["--version"] { printVersion() }
        // ... and a status bar's `cdscript status`, every second, also without a
        // run's heap set-up (StatusRequest+PlainWords.swift).
        let plainStatus = StatusRequest.plainWords(words)
        // Before the heap holds much: a run's countdowns then grow it in 2 MiB pages
        // (unless the host takes free ones back: CLinux.h).
        if plainStatus == nil { ProcessSetup.preferHugePagesForHeap() }
        ProcessSetup.catchBrokenPipe()
        let arguments = EmptyPathOptions.split(LeadingOptions.reordered(words))
        if let message = CommandHints.preflight(arguments) {
            printError(message)
            Glibc.exit(ExitStatus.usage.rawValue)
        }
        do {
            if let plainStatus {
                try plainStatus.run()
            } else if let plainRun = PlainRun.plainWords(words) {
                try plainRun.run()
            } else {
                var command = try parseAsRoot(arguments)
                try command.run()
            }
            // What a command printed that could not be written: 141 or 74.
            try OutputContract.check()
            try exitingAsCommand { try UnreadableJournal.check() }
        } catch let exit as ExitCode where exit.rawValue != ExitStatus.usage.rawValue {
            // A command's own exit code (`status` of an id not stored: 7, every
            // second under a bar) prints nothing: ArgumentParser's `exit(withError:)`
            // would build the command's help to find that out, a millisecond of CPU.
            Glibc.exit((OutputContract.failureExit() ?? exit).rawValue)
        } catch {
            if exitCode(for: error).rawValue == ExitStatus.usage.rawValue, let hint = OptionHints.misspelt(arguments) {
                printError(hint)
                Glibc.exit(ExitStatus.usage.rawValue)
            }
            exit(withError: OutputContract.failureExit() ?? OutputContract.printedRequest(error, of: CDScript.self) ?? error)
        }
    }
}

extension CDScript {
    /// `cdscript --version`, as ArgumentParser prints it (OneCommandLineTests
    /// holds the two together), through the checked writer: 74 or 141 when it
    /// cannot be written, as every command's output.
    static func printVersion() -> Never {
        emit(versionText, what: "the version")
        Glibc.exit((OutputContract.failureExit() ?? ExitCode.success).rawValue)
    }
}

/// What the executables call: ArgumentParser's entry with cdscript's own steps around it.
public enum CommandLineEntry {
    public static func main() {
        CDScript.main()
    }
}
