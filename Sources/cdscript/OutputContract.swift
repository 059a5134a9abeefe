import ArgumentParser
import CommandEnding

/// The exit statuses and the output contract are CommandEnding's, below both
/// command libraries; the command line names them as before.
public typealias ExitStatus = CommandEnding.ExitStatus
typealias OutputContract = CommandEnding.OutputContract

extension CommandEnding.OutputContract {
    /// The exit for output that could not be written (stdout flushed first), after
    /// its message; nil when everything was written. The message is printed once.
    static func failureExit() -> ExitCode? {
        failureStatus().map { ExitCode($0.rawValue) }
    }

    /// For what ArgumentParser answers on stdout (`--help`, `--version`, a
    /// completion script): printed here, through the checked writer, so that an
    /// unwritable stdout exits 74 (or 141) as every command's output does; nil
    /// for an error, which ArgumentParser reports on stderr itself.
    static func printedRequest(_ error: Error) -> Error? {
        guard CDScript.exitCode(for: error) == .success else { return nil }
        let message = CDScript.fullMessage(for: error)
        let arguments = CommandLine.arguments
        let what = arguments.contains("--version") ? "the version"
            : arguments.contains("--generate-completion-script") ? "the completion script" : "the help"
        if !message.isEmpty { emit(message, what: what) }
        return failureExit() ?? ExitCode.success
    }

    /// Throws the exit for output that could not be written, if any.
    static func check() throws {
        if let exit = failureExit() { throw exit }
    }
}

/// Runs a library's part of a command: the exit it ends with and the bad usage
/// it finds become ArgumentParser's (`ExitCode`, `ValidationError`: the usage
/// and exit 64), so that every command exits as before the libraries were split off.
func exitingAsCommand<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let exit as CommandExit {
        throw ExitCode(exit.status)
    } catch let usage as UsageError {
        throw ValidationError(usage.message)
    }
}
