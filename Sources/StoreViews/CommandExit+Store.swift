import CommandEnding
import TerminalView

extension CommandExit {
    /// A store error, said on stderr: exit 6.
    public static func storeFailed(_ error: any Error) -> CommandExit {
        StandardError.line("cdscript: \(error)")
        return CommandExit(.storeError)
    }
}
