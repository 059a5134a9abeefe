/// Exit codes of `cdscript`; docs/command-line.md ("Exit codes") lists them for users. A run exits 0 only
/// when it ends by itself: no countdown active, or its view closed after every
/// countdown ended.
public enum ExitStatus: Int32, CaseIterable, Sendable {
    /// The script ran to its end without errors.
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
    /// `q` closed the view while countdowns were still running.
    case quitEarly = 8
    /// `cdscript check` found the store damaged, or records in it that cannot be read.
    case storeDamaged = 9
    /// `cdscript start ID`: a running or paused countdown is already stored under ID (`--replace` replaces it).
    case conflict = 10
    /// `cdscript serve`: the address to listen on is taken (another serve, or another program, listens there).
    case addressInUse = 11
    /// A Redis change is on the primary, but fewer replicas than `--redis-wait`
    /// asks for confirmed it in time: it would be lost if the primary failed now.
    case unconfirmedByReplicas = 12
    /// `cdscript serve --tls-cert/--tls-key`: a file cannot be read, holds no PEM certificate or key, or the key is not the certificate's.
    case unusableTLSFile = 13
    /// `cdscript serve`, `run --serve`: cdscript-serve, the program beside cdscript that
    /// serves the pages (and that `serve` hands over to), is missing or cannot be executed.
    case serveProgramUnusable = 14
    /// Bad command-line usage (swift-argument-parser's own code).
    case usage = 64
    /// Standard output could not be written (ENOSPC, EIO, ...): sysexits' EX_IOERR.
    case outputError = 74
    /// A command to run at the end (`--exec`) exists but cannot be executed.
    case commandNotExecutable = 126
    /// A command to run at the end (`--exec`) was not found.
    case commandNotFound = 127
    /// Ended by SIGHUP.
    case hangup = 129
    /// Ended by Ctrl-C (SIGINT), whether the script stopped by itself or the
    /// watchdog (CLinux/signals.c) had to end it after the grace period.
    case interrupted = 130
    /// Standard output was a pipe whose reader went away: 128 + SIGPIPE, what a
    /// shell reports for `cat` or `lua5.4` killed by SIGPIPE in the same place.
    case closedPipe = 141
    /// Ended by SIGTERM.
    case terminated = 143
}
