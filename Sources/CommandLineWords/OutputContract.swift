import ArgumentParser
import CommandEnding

/// The output contract (CommandEnding's, below both command libraries) in
/// ArgumentParser's terms: its failure as an `ExitCode`, and what the parser
/// answers on stdout written through the checked writer.
extension OutputContract {
    /// The exit for output that could not be written (stdout flushed first), after
    /// its message; nil when everything was written. The message is printed once.
    public static func failureExit() -> ExitCode? {
        failureStatus().map { ExitCode($0.rawValue) }
    }

    /// For what ArgumentParser answers on stdout (`--help`, `--version`, a
    /// completion script): printed here, through the checked writer, so that an
    /// unwritable stdout exits 74 (or 141) as every command's output does; nil
    /// for an error, which ArgumentParser reports on stderr itself.
    public static func printedRequest(_ error: Error, of command: any ParsableCommand.Type) -> Error? {
        guard command.exitCode(for: error) == .success else { return nil }
        let message = command.fullMessage(for: error)
        let arguments = CommandLine.arguments
        let what = arguments.contains("--version") ? "the version"
            : arguments.contains("--generate-completion-script") ? "the completion script" : "the help"
        if !message.isEmpty { emit(message, what: what) }
        return failureExit() ?? ExitCode.success
    }

    /// Throws the exit for output that could not be written, if any.
    public static func check() throws {
        if let exit = failureExit() { throw exit }
    }
}

/// Runs a library's part of a command: the exit it ends with and the bad usage
/// it finds become ArgumentParser's (`ExitCode`, `ValidationError`: the usage
/// and exit 64), so that every command exits as before the libraries were split off.
public func exitingAsCommand<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let exit as CommandExit {
        throw ExitCode(exit.status)
    } catch let usage as UsageError {
        throw ValidationError(usage.message)
    }
}
