#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import CLinux
import CLuaShim
import CTerminal
import TerminalView
import StoreViews

/// What happens when standard output cannot be written, for every command.
///
/// A reader that went away (`cdscript timer 25m --plain | head -1`) ends the run
/// quietly with 141, as `cat` or `lua5.4` end there (killed by SIGPIPE, which a
/// shell reports as 128 + 13); 141 rather than 0 so that `set -o pipefail` and
/// callers can tell a cut-short run from a finished one. Any other write error
/// (ENOSPC, EIO) is one line on stderr naming what could not be written, and 74.
/// Either way a run ends as after a signal: Lua code is interrupted, the
/// terminal restored, stored countdowns stay stored.
enum OutputContract {
    /// For runs: Lua's `print` writes through the checked writer, and the first
    /// failure ends the run (MainLoop then reports SIGPIPE as its cause).
    static func endRunOnFailure() {
        cd_set_output_writer(cdt_output_write)
        StandardOutput.onFailure { error in
            cdl_end_run(SIGPIPE, error == EPIPE ? ExitStatus.closedPipe.rawValue : ExitStatus.outputError.rawValue)
        }
    }

    private nonisolated(unsafe) static var reported = false

    /// The exit for output that could not be written (stdout flushed first), after
    /// its message; nil when everything was written. The message is printed once.
    static func failureExit() -> ExitCode? {
        guard let failure = failure() else { return nil }
        report(failure)
        return ExitCode(failure == .closedPipe ? ExitStatus.closedPipe.rawValue : ExitStatus.outputError.rawValue)
    }

    /// Why standard output could not be written (stdout flushed first), or nil.
    static func failure() -> StandardOutput.Failure? {
        StandardOutput.flush()
        return StandardOutput.failure
    }

    /// The one line on stderr that names what could not be written (none for a
    /// reader that went away); printed once.
    static func report(_ failure: StandardOutput.Failure) {
        guard case .error(let error, let what) = failure, !reported else { return }
        reported = true
        printError("cdscript: could not write \(what) to standard output" + (error.map { ": " + String(cString: strerror($0)) } ?? ""))
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

/// Writes `text` to standard output, through `StandardOutput`; `what` names it
/// in the message if it cannot be written. Commands print with this, never with
/// Swift's `print` (which drops errors) or `FileHandle.write` (which traps).
func emit(_ text: String, terminator: String = "\n", what: String) {
    StandardOutput.write(text + terminator, what: what)
}
