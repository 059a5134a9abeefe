import ArgumentParser
import CountdownCore
import EventLoop
import Foundation
import LuaHost

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a countdown script until no countdown is active, or until its view is closed."
    )

    @Flag(help: "Print one line per change of the view instead of drawing it (the default when stdout is not a terminal).")
    var plain = false

    @Flag(name: .customLong("no-color"), help: "Draw the view without colours (also when NO_COLOR is set).")
    var noColor = false

    @Argument(help: "The Lua script to run.")
    var script: String

    @Argument(parsing: .captureForPassthrough, help: "Arguments for the script, as `arg` and `...`.")
    var scriptArguments: [String] = []

    func run() throws {
        LuaHost.lineBufferStandardOutput()
        let scheduler = Scheduler(clock: BootClock())
        let host = LuaHost(scheduler: scheduler)
        let loop: MainLoop
        do {
            loop = try MainLoop(scheduler: scheduler)
        } catch {
            printError("cdscript: \(error)")
            throw ExitCode(ExitStatus.systemError.rawValue)
        }
        let view = ViewRuntime(plain: plain, noColor: noColor, host: host, loop: loop)
        defer { view.finish() }
        if let failure = host.runScript(atPath: script, arguments: scriptArguments) {
            view.finish()
            switch failure.kind {
            case .unreadable:
                printError("cdscript: \(failure.message)")
                throw ExitCode(ExitStatus.unreadableScript.rawValue)
            case .syntax:
                printError(failure.message)
                throw ExitCode(ExitStatus.syntaxError.rawValue)
            case .runtime:
                printError("cdscript: error: \(failure.message)")
                throw ExitCode(ExitStatus.scriptError.rawValue)
            }
        }
        let outcome = loop.run()
        view.finish()
        switch outcome {
        case .signal(SIGTERM): throw ExitCode(ExitStatus.terminated.rawValue)
        case .signal(SIGHUP): throw ExitCode(ExitStatus.hangup.rawValue)
        default: break
        }
        if host.hookErrorCount > 0 {
            throw ExitCode(ExitStatus.hookError.rawValue)
        }
    }
}

func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
