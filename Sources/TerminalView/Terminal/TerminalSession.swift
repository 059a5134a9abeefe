#if canImport(Glibc)
import Glibc
#endif
import CTerminal

/// The real terminal, as a `ViewSurface`: while the view is open the terminal is
/// in raw mode (no echo, keys one by one; signals still work), on the alternate
/// screen with the cursor hidden, and what the program writes to stdout and
/// stderr meanwhile is kept in memory files of `captureLimit` bytes each and
/// written out after the terminal is given back, so that nothing breaks the
/// screen; past the bound, writes fail (the script's output is cut there, and a
/// note says so).
///
/// While the view is open, how to give the terminal back is also kept in C
/// (`cdt_restore_arm`), so that a signal handler or the watchdog can restore it
/// without allocating, whatever the main thread is doing.
///
/// `end` restores everything and is safe to call on every path, more than once.
/// `suspend` and `resume` bracket a Ctrl-Z stop. A stop the loop does not see
/// coming (Ctrl-Z while a hook runs) gives the terminal back from C
/// (`suspendFromSignal`); `resume` takes it over after that one too.
public final class TerminalSession: ViewSurface {
    /// The descriptor keys are read from (a terminal), or -1 for none.
    public let inputFD: Int32
    private let outputFD: Int32
    /// The terminal, duplicated before stdout is redirected.
    private var terminalFD: Int32 = -1
    private var savedStdout: Int32 = -1
    private var savedStderr: Int32 = -1
    private var capturedStdout: Int32 = -1
    private var capturedStderr: Int32 = -1
    /// The most bytes of stdout (and of stderr) kept while the view is open.
    public static let captureLimit = 8 << 20
    private var savedMode = termios()
    private var hasSavedMode = false
    public private(set) var isActive = false
    public private(set) var isSuspended = false
    /// The session an `exit` must restore. One thread runs the view.
    nonisolated(unsafe) private static var current: TerminalSession?
    nonisolated(unsafe) private static var exitHandlerInstalled = false

    /// - Parameters:
    ///   - outputFD: the terminal the view is drawn on (stdout).
    ///   - inputFD: where keys come from (stdin), used only when it is a terminal.
    public init(outputFD: Int32 = STDOUT_FILENO, inputFD: Int32 = STDIN_FILENO) {
        self.outputFD = outputFD
        self.inputFD = isatty(inputFD) == 1 ? inputFD : -1
    }

    /// For signal handlers and the watchdog: gives the terminal back now, with
    /// the sequences and termios kept when the view opened (async-signal-safe).
    public static let restoreFromSignal: @convention(c) () -> Int32 = cdt_restore_now

    /// For a stop the view does not see coming (Ctrl-Z while a hook runs): gives
    /// the terminal back as `suspend` does, from any thread (async-signal-safe);
    /// `resume` takes it over again.
    public static let suspendFromSignal: @convention(c) () -> Int32 = cdt_suspend_now

    /// Whether the terminal is given back now, by `suspend` or `suspendFromSignal`:
    /// nothing may be drawn then, or it lands on the shell's screen and stays there.
    public var isGivenBack: Bool { isSuspended || cdt_suspended() != 0 }

    /// Whether `fd` is a terminal.
    public static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    public var size: TerminalSize {
        var columns: Int32 = 0, rows: Int32 = 0
        let fd = terminalFD >= 0 ? terminalFD : outputFD
        if cdt_window_size(fd, &columns, &rows) == 0 {
            return TerminalSize(columns: Int(columns), rows: Int(rows))
        }
        return TerminalSize(columns: 80, rows: 24)
    }

    public func begin() {
        guard !isActive else { return }
        isActive = true
        // os.exit() in a script ends the process without unwinding: restore then too.
        Self.current = self
        if !Self.exitHandlerInstalled {
            Self.exitHandlerInstalled = true
            atexit { TerminalSession.current?.end() }
        }
        fflush(nil)  // every C stream, before the descriptors move
        terminalFD = fcntl(outputFD, F_DUPFD_CLOEXEC, 3)
        savedStdout = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3)
        savedStderr = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3)
        capturedStdout = Self.boundedCapture()
        capturedStderr = Self.boundedCapture()
        if capturedStdout >= 0 { dup2(capturedStdout, STDOUT_FILENO) }
        if capturedStderr >= 0, isatty(STDERR_FILENO) == 1 { dup2(capturedStderr, STDERR_FILENO) }
        enterTerminalMode()
        cdt_restore_capture(0, capturedStdout, savedStdout)
        cdt_restore_capture(1, capturedStderr, savedStderr)
    }

    public func write(_ text: String) {
        guard terminalFD >= 0 else { return }
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { Glibc.write(terminalFD, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                // The terminal went away (EIO after a hang-up) or refuses: the
                // run ends through the failure, as for any other output.
                StandardOutput.fail(errno: errno, what: "the view")
                return
            }
            bytes = bytes.dropFirst(n)
        }
    }

    public func end() {
        guard isActive else { return }
        if isGivenBack { cdt_restore_disarm() } else { leaveTerminalMode() }
        isActive = false
        isSuspended = false
        fflush(nil)  // every C stream, before the descriptors move
        // A write that did not fit in the capture set the stream's error flag.
        let failedWrite = cdt_take_stream_errors() != 0
        if savedStdout >= 0 { dup2(savedStdout, STDOUT_FILENO) }
        if savedStderr >= 0 { dup2(savedStderr, STDERR_FILENO) }
        let cutStdout = replay(&capturedStdout, to: STDOUT_FILENO)
        let cutStderr = replay(&capturedStderr, to: STDERR_FILENO)
        if cutStdout || cutStderr || failedWrite {
            let note = "cdscript: what the script printed while the view was open passed \(Self.captureLimit >> 20) MB; the rest was dropped\n"
            _ = note.withCString { Glibc.write(STDERR_FILENO, $0, strlen($0)) }
        }
        for fd in [terminalFD, savedStdout, savedStderr] where fd >= 0 { close(fd) }
        if Self.current === self { Self.current = nil }
        terminalFD = -1
        savedStdout = -1
        savedStderr = -1
    }

    /// Gives the terminal back before the process stops (Ctrl-Z).
    public func suspend() {
        guard isActive, !isSuspended else { return }
        if cdt_suspended() != 0 { cdt_restore_disarm() } else { leaveTerminalMode() }
        isSuspended = true
    }

    /// Takes the terminal over again after SIGCONT; the caller redraws everything.
    public func resume() {
        guard isActive, isGivenBack else { return }
        isSuspended = false
        enterTerminalMode()
        // `suspend` let go of the captured output: a forced end restores it again.
        cdt_restore_capture(0, capturedStdout, savedStdout)
        cdt_restore_capture(1, capturedStderr, savedStderr)
    }

    /// Keys typed since the last call; nil once the input has ended.
    public func readKeys() -> [String]? {
        guard inputFD >= 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 256)
        let n = read(inputFD, &buffer, buffer.count)
        if n < 0 && (errno == EINTR || errno == EAGAIN) { return [] }
        guard n > 0 else { return nil }
        return KeyDecoder.keys(Array(buffer[..<n]))
    }

    private func enterTerminalMode() {
        if inputFD >= 0, tcgetattr(inputFD, &savedMode) == 0 {
            hasSavedMode = true
            var raw = savedMode
            // Keys one by one without echo; ISIG stays on, so Ctrl-C, Ctrl-Z and
            // Ctrl-\ still arrive as signals, which the run loop handles.
            raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN)
            raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
            withUnsafeMutableBytes(of: &raw.c_cc) { cc in
                cc[Int(VMIN)] = 1
                cc[Int(VTIME)] = 0
            }
            tcsetattr(inputFD, TCSAFLUSH, &raw)
        }
        // The first frame after this clears the screen (the controller redraws all).
        write(ANSI.pushTitle + ANSI.enterAlternateScreen + ANSI.hideCursor)
        var leave = Array(Self.leaveSequence.utf8)
        cdt_restore_arm(terminalFD, inputFD, &savedMode, hasSavedMode ? 1 : 0, &leave, leave.count)
    }

    private static let leaveSequence = ANSI.reset + ANSI.showCursor + ANSI.leaveAlternateScreen + ANSI.popTitle

    private func leaveTerminalMode() {
        cdt_restore_disarm()
        write(Self.leaveSequence)
        if hasSavedMode { tcsetattr(inputFD, TCSAFLUSH, &savedMode) }
    }

    /// A memory file of `captureLimit` bytes that cannot grow: writes past its end fail.
    private static func boundedCapture() -> Int32 {
        cdt_bounded_capture(captureLimit)
    }

    /// Writes out what was captured in `capture`; true when it was full (output was cut).
    private func replay(_ capture: inout Int32, to fd: Int32) -> Bool {
        guard capture >= 0 else { return false }
        let source = capture
        capture = -1
        defer { close(source) }
        // Writes went from offset 0 through the shared file offset: that is the end.
        let end = Int(lseek(source, 0, SEEK_CUR))
        var buffer = [UInt8](repeating: 0, count: 4096)
        var position = 0
        while position < end {
            let n = pread(source, &buffer, min(buffer.count, end - position), off_t(position))
            if n <= 0 { break }
            position += n
            var offset = 0
            while offset < n {
                let w = buffer[offset..<n].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
                if w <= 0 { if errno == EINTR { continue }; break }
                offset += w
            }
        }
        return end >= Self.captureLimit - 4096
    }
}
