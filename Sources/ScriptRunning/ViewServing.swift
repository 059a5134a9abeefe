#if canImport(Glibc)
import Glibc
#endif
import CommandEnding
import EventLoop
import ScriptViewModel
import TerminalView

/// `run --serve`: the script's view on a web page, beside the terminal's or
/// instead of it. The page is served by a child, cdscript-serve (this binary
/// links no web server: ServeProgram), and the script stays here, on the one
/// thread that owns it:
///
/// - after each pass of the run loop the view's state is compared with the
///   last one sent and, when the page would see a difference, sent to the
///   child as one line of JSON on its standard input (`ScriptViewPublisher`);
/// - the child writes lines on its standard output, a pipe the loop watches
///   like the terminal's input: `say TEXT` (a line for our standard output:
///   where it listens, the token made), `ready` once it listens, then
///   `key KEY` for each click, pressed here as a typed key.
///
/// Its standard input is a socket (written with MSG_NOSIGNAL, never blocking:
/// a child that does not read gets the newest frame once it does, and a dead
/// one raises no SIGPIPE here). When this process ends, even by SIGKILL, the
/// child reads the end of its input and stops; when the child ends, the key
/// pipe ends and the run says so and goes on without the page.
final class ViewServing {
    private let pid: pid_t
    /// Frames out (the child's standard input).
    private let frames: Int32
    /// Lines in (the child's standard output).
    private let lines: Int32
    private var received = LineSplitter()
    /// The rest of a frame partly sent, then the newest frame not begun: a
    /// frame is a whole view, so older unsent ones are dropped, never mixed.
    private var partial: ArraySlice<UInt8> = []
    private var newest: [UInt8]?
    private var publisher: ScriptViewPublisher?
    private var childEnded = false
    private var stopped = false

    /// Starts the page's server and waits until it listens; or exits as `serve`
    /// does (11 when the address is taken, 5 when it cannot listen, 14 when
    /// cdscript-serve cannot start), its messages on standard error.
    init(_ settings: ViewServeSettings) throws(CommandExit) {
        let program = settings.program
        if let why = settings.programProblem {
            printError("cdscript run: --serve: the page's server cannot start: \(why)")
            throw CommandExit(.serveProgramUnusable)
        }
        var arguments = [program, Self.mode, "--serve", settings.address]
        if let file = settings.tokenFile { arguments += ["--token-file", file] }
        if let stateDir = settings.stateDir { arguments += ["--state-dir", stateDir] }
        for host in settings.allowedHosts { arguments += ["--allow-host", host] }
        let (pid, frames, lines) = try Self.spawn(arguments)
        self.pid = pid
        self.frames = frames
        self.lines = lines
        try waitUntilListening()
        // From now on neither end blocks this thread.
        for fd in [frames, lines] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    }

    deinit {
        stop()
    }

    /// The first word of the child's arguments: cdscript-serve serves a script's view.
    static let mode = "--script-view"

    /// Publishes `view`'s state after every pass of `loop`, and presses the keys the page sends.
    func attach(to view: ViewRuntime, loop: MainLoop) {
        let publisher = ScriptViewPublisher { [unowned self] frame in
            self.newest = Array((frame.json + "\n").utf8)
            self.sendFrames()
        }
        self.publisher = publisher
        loop.watch(lines) { [unowned self, unowned view, unowned loop] in self.readLines(view: view, loop: loop) }
        let render = loop.afterPass
        loop.afterPass = { [unowned self, unowned view] in
            render()
            self.sendFrames()
            publisher.update(ScriptViewState(of: view.controller))
        }
    }

    /// Ends the child's input (it stops listening and closes the pages'
    /// connections: they say "reconnecting", or that the view was closed) and
    /// waits for it to exit. Once.
    func stop() {
        guard !stopped else { return }
        stopped = true
        sendFrames()
        shutdown(frames, Int32(SHUT_WR))
        if !reap(within: 5_000) {
            kill(pid, SIGKILL)
            _ = reap(within: 5_000)
        }
        close(frames)
        close(lines)
    }

    // MARK: - The child

    private static func spawn(_ arguments: [String]) throws(CommandExit) -> (pid: pid_t, frames: Int32, lines: Int32) {
        var pair: [Int32] = [-1, -1]
        var pipeEnds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0,
              pipe(&pipeEnds) == 0 else {
            printError("cdscript run: --serve: cannot make the page server's pipes: \(String(cString: strerror(errno)))")
            throw CommandExit(.systemError)
        }
        for fd in pipeEnds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // dup2 leaves the copies open across exec; the originals (close-on-exec) are not inherited.
        posix_spawn_file_actions_adddup2(&actions, pair[1], 0)
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGCHLD, SIGPIPE, SIGQUIT, SIGTSTP] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        // A process group of its own: Ctrl-C and Ctrl-Z at the terminal are the script's; the child
        // ends when its input does.
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, environ)
        close(pair[1])
        close(pipeEnds[1])
        guard status == 0 else {
            close(pair[0])
            close(pipeEnds[0])
            printError("cdscript run: --serve: cannot start \(arguments[0]): \(String(cString: strerror(status)))")
            throw CommandExit(.serveProgramUnusable)
        }
        return (pid, pair[0], pipeEnds[0])
    }

    /// Reads the child's first lines (blocking) until it says it listens; a
    /// child that ends first ends the run with its status (it said why).
    private func waitUntilListening() throws(CommandExit) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(lines, &buffer, buffer.count)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            for line in received.feed(Array(buffer[..<n])) {
                if line == "ready" {
                    _ = StandardOutput.flush()
                    return
                }
                if line.hasPrefix("say ") { StandardOutput.write(String(line.dropFirst(4)) + "\n", what: "the log") }
            }
        }
        stopped = true
        close(frames)
        close(lines)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        if status & 0x7F == 0 {
            let code = (status >> 8) & 0xFF
            throw CommandExit(status: code == 0 ? ExitStatus.systemError.rawValue : code)
        }
        printError("cdscript run: --serve: the page's server (cdscript-serve) was killed by signal \(status & 0x7F) before it listened")
        throw CommandExit(.systemError)
    }

    /// The child's lines since the last call: keys pressed on the page, or its end.
    private func readLines(view: ViewRuntime, loop: MainLoop) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(lines, &buffer, buffer.count)
            if n < 0 && errno == EINTR { continue }
            if n < 0 && errno == EAGAIN { return }
            guard n > 0 else {
                loop.unwatch(lines)
                ended()
                return
            }
            for line in received.feed(Array(buffer[..<n])) where line.hasPrefix("key ") {
                let key = String(line.dropFirst(4))
                // Only a key a button binds now: the page clicks buttons, it does not type.
                guard view.controller.model.button(forKey: key) != nil else { continue }
                view.host.view?.press(key)
            }
        }
    }

    /// The child is gone (its output ended): said once; the script runs on without the page.
    private func ended() {
        guard !childEnded, !stopped else { return }
        childEnded = true
        partial = []
        newest = nil
        var how = "ended"
        if reap(within: 1_000) {
            how = lastStatus & 0x7F == 0 ? "exited with status \((lastStatus >> 8) & 0xFF)" : "was killed by signal \(lastStatus & 0x7F)"
        }
        printError("cdscript run: --serve: the page's server (cdscript-serve, pid \(pid)) \(how); the page is gone, the script runs on")
    }

    private var lastStatus: Int32 = 0
    private var reaped = false

    /// Waits up to `milliseconds` for the child to exit; true once it has.
    private func reap(within milliseconds: Int) -> Bool {
        if reaped { return true }
        for _ in 0...(milliseconds / 10) {
            let result = waitpid(pid, &lastStatus, WNOHANG)
            if result == pid || (result < 0 && errno == ECHILD) {
                reaped = true
                return true
            }
            usleep(10_000)
        }
        return false
    }

    /// Sends what is waiting, as far as the socket takes it now; the rest on a later pass.
    private func sendFrames() {
        guard !childEnded else { return }
        while true {
            if partial.isEmpty {
                guard let line = newest else { return }
                partial = line[...]
                newest = nil
            }
            let n = partial.withUnsafeBytes { send(frames, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
            if n > 0 {
                partial = partial.dropFirst(n)
                continue
            }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && errno != EAGAIN {
                // The child's end is closed: its pipe's end reports it (ended()).
                partial = []
                newest = nil
            }
            return
        }
    }
}
