#if canImport(Glibc)
import Glibc
#endif
import CommandEnding
import LuaHost
import TerminalView

/// How a run (`run`, `timer`, `watch`) ended, as far as its exit status goes:
/// the facts each step of the run gathered, nothing decided yet.
public struct RunEnding: Equatable, Sendable {
    /// `--coverage`'s reports could not be written: bad `.luacov` patterns
    /// (`unreadableScript`) or a file that could not be written (`outputError`).
    public var coverageFailure: ExitStatus?
    /// The script's main chunk did not run to its end.
    public var scriptFailure: ScriptFailure.Kind?
    /// The terminating signal that ended the run (while the main chunk ran or in
    /// the loop). Output that could not be written ends a run as SIGPIPE.
    public var signal: Int32?
    /// Stored countdowns were lost, or changes could not be sent to the store
    /// (a Redis server out of reach at the end: they wait in the outage queue).
    public var changesLost = false
    /// Standard output could not be written.
    public var output: StandardOutput.Failure?
    /// The view was closed with Ctrl-C.
    public var quitWithCtrlC = false
    /// The view was closed with `q` while countdowns were still running.
    public var quitEarly = false
    /// A command to run at the end (`--exec`, the `exec` plugin) could not be
    /// started: its errno.
    public var spawnFailure: Int32?
    /// An end action (`--exec` with `--id`, an `on_end_action` that gives one)
    /// exited with this status, other than 0: here, or in the process that
    /// claimed the end, which recorded it with the claim.
    public var endActionStatus: Int32?
    /// A hook raised an error (a limit hit in a hook included).
    public var hookErrors = false
    /// The store could not be used: not opened at the start, or a read or write
    /// failed during the run.
    public var storeFailed = false

    public init(coverageFailure: ExitStatus? = nil, scriptFailure: ScriptFailure.Kind? = nil, signal: Int32? = nil,
                changesLost: Bool = false, output: StandardOutput.Failure? = nil, quitWithCtrlC: Bool = false,
                quitEarly: Bool = false, spawnFailure: Int32? = nil, endActionStatus: Int32? = nil,
                hookErrors: Bool = false, storeFailed: Bool = false) {
        self.coverageFailure = coverageFailure
        self.scriptFailure = scriptFailure
        self.signal = signal
        self.changesLost = changesLost
        self.output = output
        self.quitWithCtrlC = quitWithCtrlC
        self.quitEarly = quitEarly
        self.spawnFailure = spawnFailure
        self.endActionStatus = endActionStatus
        self.hookErrors = hookErrors
        self.storeFailed = storeFailed
    }
}

/// Why a run exits as it does: the one decision every exit path of a run takes
/// (`RunExit(ending)`), each case with its status from `ExitStatus`. A run that
/// is refused before it starts exits where it is refused, with its own named
/// status: a bad `--speed` 64 (the command line's), a `.luacov` that cannot be
/// read 4 (`RunCoverage`), a run loop or `--watch` that cannot be set up 5.
public enum RunExit: Equatable, Sendable {
    case coverageNotWritten(ExitStatus)
    case scriptFailed(ScriptFailure.Kind)
    case changesLost
    case signal(Int32)
    case outputFailed(StandardOutput.Failure)
    case quitWithCtrlC
    case quitEarly
    case commandNotRun(errno: Int32)
    case endActionFailed(status: Int32)
    case hookErrors
    case storeFailed
    case finished

    /// The first of these that holds decides: what could not be written outranks
    /// everything; a main chunk that failed outranks the store (the run never
    /// really started); stored countdowns lost or changes not sent outrank how the
    /// run ended, 6 even after Ctrl-C, so that a script around it can tell; a
    /// signal outranks what the loop counted.
    public init(_ ending: RunEnding) {
        if let failure = ending.coverageFailure {
            self = .coverageNotWritten(failure)
        } else if ending.signal == nil, let kind = ending.scriptFailure {
            self = .scriptFailed(kind)
        } else if ending.changesLost {
            self = .changesLost
        } else if let signal = ending.signal {
            // SIGPIPE stands for output that could not be written: 141, or 74 for
            // an error other than a reader that went away.
            self = signal == SIGPIPE ? .outputFailed(ending.output ?? .closedPipe) : .signal(signal)
        } else if let output = ending.output {
            self = .outputFailed(output)
        } else if ending.quitWithCtrlC {
            self = .quitWithCtrlC
        } else if ending.quitEarly {
            self = .quitEarly
        } else if let error = ending.spawnFailure {
            self = .commandNotRun(errno: error)
        } else if let status = ending.endActionStatus {
            self = .endActionFailed(status: status)
        } else if ending.hookErrors {
            self = .hookErrors
        } else if ending.storeFailed {
            self = .storeFailed
        } else {
            self = .finished
        }
    }

    /// The process's exit status.
    public var status: Int32 {
        switch self {
        case .coverageNotWritten(let status): status.rawValue
        case .scriptFailed(.unreadable): ExitStatus.unreadableScript.rawValue
        case .scriptFailed(.syntax): ExitStatus.syntaxError.rawValue
        case .scriptFailed(.runtime): ExitStatus.scriptError.rawValue
        case .changesLost, .storeFailed: ExitStatus.storeError.rawValue
        case .signal(let signal): Self.status(afterSignal: signal)
        case .outputFailed(.closedPipe): ExitStatus.closedPipe.rawValue
        case .outputFailed(.error): ExitStatus.outputError.rawValue
        case .quitWithCtrlC: ExitStatus.interrupted.rawValue
        case .quitEarly: ExitStatus.quitEarly.rawValue
        case .commandNotRun(let error):
            error == ENOENT ? ExitStatus.commandNotFound.rawValue : ExitStatus.commandNotExecutable.rawValue
        // The action's own status, as `timer 3s --exec prog && next` expects; every
        // process that shares the end exits with it. Kept to 1...255 (an exit status).
        case .endActionFailed(let status): status & 0xff == 0 ? 1 : status & 0xff
        case .hookErrors: ExitStatus.hookError.rawValue
        case .finished: ExitStatus.success.rawValue
        }
    }

    /// 128 + the signal, as shells report it: Ctrl-C 130, SIGTERM 143, SIGHUP 129
    /// (the watchdog exits with the same codes when the run had to be forced).
    private static func status(afterSignal signal: Int32) -> Int32 {
        switch signal {
        case SIGINT: ExitStatus.interrupted.rawValue
        case SIGTERM: ExitStatus.terminated.rawValue
        case SIGHUP: ExitStatus.hangup.rawValue
        case SIGPIPE: ExitStatus.closedPipe.rawValue
        default: 128 + signal
        }
    }

    /// Ends the command with this exit: returns for `.finished`, else throws its
    /// status, after the one line that says which output could not be written.
    public func end() throws(CommandExit) {
        if case .outputFailed(let failure) = self { OutputContract.report(failure) }
        if self != .finished { throw CommandExit(status: status) }
    }

    /// Ends a command that a terminating signal ended, as a run ends: 128 + the
    /// signal as shells expect, and SIGPIPE for output that could not be written
    /// (OutputContract): 141 or 74.
    public static func end(afterSignal signal: Int32) throws(CommandExit) {
        try RunExit(RunEnding(signal: signal, output: OutputContract.failure())).end()
    }
}
