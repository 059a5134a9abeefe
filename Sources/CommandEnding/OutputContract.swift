#if canImport(Glibc)
import Glibc
#endif
import EventLoop
import TerminalView

/// What happens when standard output cannot be written, for every command.
///
/// A reader that went away (`cdscript timer 25m --plain | head -1`) ends the run
/// quietly with 141, as `cat` or `lua5.4` end there (killed by SIGPIPE, which a
/// shell reports as 128 + 13); 141 rather than 0 so that `set -o pipefail` and
/// callers can tell a cut-short run from a finished one. Any other write error
/// (ENOSPC, EIO) is one line on stderr naming what could not be written, and 74.
/// Either way a run ends as after a signal: Lua code is interrupted, the
/// terminal restored, stored countdowns stay stored.
public enum OutputContract {
    /// For runs: the first failure to write ends the run (MainLoop then reports
    /// SIGPIPE as its cause). A script's run also has Lua's `print` write through
    /// the checked writer (`LuaHost.printThroughStandardOutput`).
    public static func endRunOnFailure() {
        StandardOutput.onFailure { error in
            MainLoop.endRun(cause: SIGPIPE, code: error == EPIPE ? ExitStatus.closedPipe.rawValue : ExitStatus.outputError.rawValue)
        }
    }

    private nonisolated(unsafe) static var reported = false

    /// The exit for output that could not be written (stdout flushed first), after
    /// its message; nil when everything was written. The message is printed once.
    public static func failureStatus() -> ExitStatus? {
        guard let failure = failure() else { return nil }
        report(failure)
        return failure == .closedPipe ? .closedPipe : .outputError
    }

    /// Why standard output could not be written (stdout flushed first), or nil.
    public static func failure() -> StandardOutput.Failure? {
        StandardOutput.flush()
        return StandardOutput.failure
    }

    /// The one line on stderr that names what could not be written (none for a
    /// reader that went away); printed once.
    public static func report(_ failure: StandardOutput.Failure) {
        guard case .error(let error, let what) = failure, !reported else { return }
        reported = true
        printError("cdscript: could not write \(what) to standard output" + (error.map { ": " + String(cString: strerror($0)) } ?? ""))
    }

    /// Writes `text` to standard output, through `StandardOutput`; `what` names it
    /// in the message if it cannot be written. Commands print with this, never with
    /// Swift's `print` (which drops errors) or `FileHandle.write` (which traps).
    public static func emit(_ text: String, terminator: String = "\n", what: String) {
        StandardOutput.write(text + terminator, what: what)
    }
}
