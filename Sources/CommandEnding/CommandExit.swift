import TerminalView

/// A command ends here, with `status`, having said why on stderr. The libraries
/// below the command line throw it where a command used to throw the parser's
/// exit; the command line turns it into its own (`ExitCode`), so that no library
/// depends on the parser.
public struct CommandExit: Error, Equatable, Sendable {
    /// The process's exit status.
    public let status: Int32

    public init(status: Int32) { self.status = status }

    public init(_ status: ExitStatus) { self.status = status.rawValue }
}

/// Bad usage found while a command runs (not while its options were read): the
/// command line reports it as the parser reports its own (`Error: MESSAGE`, the
/// usage, exit 64).
public struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

/// One line on stderr. Never traps: stderr may be a closed pipe or a full disk
/// too, and then there is nobody to tell.
public func printError(_ message: String) {
    StandardError.line(message)
}

/// Writes `text` to standard output through the output contract, `what` naming it
/// in the message if it cannot be written (141 or 74). Commands print with this,
/// never with Swift's `print` (which drops errors) or `FileHandle.write` (which traps).
public func emit(_ text: String, terminator: String = "\n", what: String) {
    OutputContract.emit(text, terminator: terminator, what: what)
}
