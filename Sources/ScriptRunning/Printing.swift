import CommandEnding
import TerminalView

/// One line on stderr. Never traps: stderr may be a closed pipe or a full disk
/// too, and then there is nobody to tell.
func printError(_ message: String) {
    StandardError.line(message)
}

/// Writes `text` to standard output through the output contract (a failure
/// there ends the command with 141 or 74).
func emit(_ text: String, terminator: String = "\n", what: String) {
    OutputContract.emit(text, terminator: terminator, what: what)
}
