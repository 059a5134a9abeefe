/// Exit codes of `cdscript`; README.md lists them for users.
enum ExitStatus: Int32 {
    /// The script ran to its end without errors (also after Ctrl-C or `q`).
    case success = 0
    /// A hook raised an error; the other countdowns ran on.
    case hookError = 1
    /// The script's main chunk raised an error.
    case scriptError = 2
    /// The script is not valid Lua.
    case syntaxError = 3
    /// The script file is missing or unreadable.
    case unreadableScript = 4
    /// The run loop could not be set up.
    case systemError = 5
    /// The countdown store could not be used (damaged, unreadable, newer schema, a
    /// failed write); `run` went on without it.
    case storeError = 6
    /// `cdscript cancel ID`: no stored countdown has that id.
    case unknownCountdown = 7
    /// Bad command-line usage (swift-argument-parser's own code).
    case usage = 64
    /// Ended by SIGHUP.
    case hangup = 129
    /// Ctrl-C when the script did not stop within the grace period: the
    /// watchdog (CLinux/signals.c) ended the run with 128 + SIGINT.
    case interruptForced = 130
    /// Ended by SIGTERM.
    case terminated = 143
}
