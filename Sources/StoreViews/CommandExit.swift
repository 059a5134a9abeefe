import TerminalView

/// How a command ends when it does not succeed: its exit status, once what went
/// wrong has been said on stderr. The library throws it; the command line turns
/// it into ArgumentParser's exit (`StoreOptions.swift`), so that no code here
/// needs ArgumentParser.
public struct CommandExit: Error, Equatable, Sendable {
    public let status: ExitStatus

    public init(_ status: ExitStatus) { self.status = status }

    /// A store error, said on stderr: exit 6.
    public static func storeFailed(_ error: any Error) -> CommandExit {
        StandardError.line("cdscript: \(error)")
        return CommandExit(.storeError)
    }
}
