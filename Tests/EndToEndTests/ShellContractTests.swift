import Foundation
import Glibc
import Testing

/// Runs the binary with standard output on a closed pipe, on `/dev/full`, or
/// on a file, standard input from `input`, standard error kept.
enum ShellRun {
    enum Output { case closedPipe, full, file(String) }

    /// A path in the package (examples, the Lua spec), absolute.
    static func inPackage(_ path: String) -> String { BinaryRunner.packageRoot.appendingPathComponent(path).path }

    struct Result {
        let code: Int32?
        let signal: Int32?
        let stderr: String
        let seconds: Double
    }

    static func run(_ arguments: [String], stdout output: Output, input: String = "", timeout: Double = 30) throws -> Result {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-shell-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let stdinPath = dir.appendingPathComponent("stdin").path, stderrPath = dir.appendingPathComponent("stderr").path
        try input.write(toFile: stdinPath, atomically: false, encoding: .utf8)
        let outFD: Int32
        switch output {
        case .closedPipe:
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else { throw POSIXError(.EMFILE) }
            _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
            close(ends[0])  // the reader is gone before the first write
            outFD = ends[1]
        case .full:
            outFD = open("/dev/full", O_WRONLY | O_CLOEXEC)
        case .file(let path):
            outFD = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        }
        let inFD = open(stdinPath, O_RDONLY | O_CLOEXEC), errFD = open(stderrPath, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        defer { close(outFD); close(inFD); close(errFD) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inFD, 0)
        posix_spawn_file_actions_adddup2(&actions, outFD, 1)
        posix_spawn_file_actions_adddup2(&actions, errFD, 2)
        let argv = [BinaryRunner.binary.path] + arguments
        var cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for p in cArgs { free(p) } }
        var pid: pid_t = 0
        let started = Date()
        let status = withCleanSignalAttributes { posix_spawn(&pid, argv[0], &actions, &$0, &cArgs, environ) }
        guard status == 0 else { throw POSIXError(.ENOENT) }
        var wstatus: Int32 = 0
        while waitpid(pid, &wstatus, WNOHANG) == 0 {
            if Date().timeIntervalSince(started) > timeout {
                kill(pid, SIGKILL)
                waitpid(pid, &wstatus, 0)
                break
            }
            usleep(10_000)
        }
        let seconds = Date().timeIntervalSince(started)
        let stderr = (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
        if wstatus & 0x7f == 0 { return Result(code: (wstatus >> 8) & 0xff, signal: nil, stderr: stderr, seconds: seconds) }
        return Result(code: nil, signal: wstatus & 0x7f, stderr: stderr, seconds: seconds)
    }

    /// A state folder holding one running countdown, `kept`, with 10 minutes left.
    static func storeWithCountdown() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-shell-store-\(UUID().uuidString)").path
        let seed = try BinaryRunner.script(#"countdown.start{ id = "kept", seconds = 600, persist = true }; os.exit(0)"#)
        let result = try BinaryRunner.run(["--state-dir", dir, seed])
        guard result.status == 0 else { throw POSIXError(.EIO) }
        return dir
    }
}

/// Output that cannot be written: a closed pipe ends the run quietly with 141
/// (as `cat` into `head`); a write error is one line naming what could not be
/// written, and 74. Never a trap, for every writer.
@Suite("Every writer into a closed pipe and into /dev/full", .serialized)
struct OutputFailureTests {
    /// Each writer: its name, the command line, and what the message names.
    static func writers() throws -> [(String, [String], String)] {
        let store = try ShellRun.storeWithCountdown()
        let printer = try BinaryRunner.script(#"for i = 1, 3 do print(i) end"#)
        let writer = try BinaryRunner.script(#"for i = 1, 100000 do io.write(i, "\n") end"#)
        let spinner = try BinaryRunner.script(#"countdown.start{ seconds = 60, every = 0.1, on_tick = function(t) print(t.remaining) end }"#)
        return [
            ("timer --plain", ["timer", "25m", "--plain"], "the view's lines"),
            ("watch --plain", ["watch", "--plain", "--state-dir", store], "the view's lines"),
            ("a script's plain view", [ShellRun.inPackage("examples/sms_code.lua"), "3"], "the view's lines"),
            ("print in the main chunk", [printer], "what the script printed"),
            ("print in a hook", [spinner], "what the script printed"),
            ("io.write", [writer], "what the script wrote"),
            ("list", ["list", "--state-dir", store], "the listing"),
            ("list --json", ["list", "--json", "--state-dir", store], "the listing"),
            ("test report", ["test", ShellRun.inPackage("tests/cancel_spec.lua")], "the test report"),
            ("test --tap", ["test", "--tap", ShellRun.inPackage("tests/cancel_spec.lua")], "the test report"),
            ("timer --eject", ["timer", "--eject"], "the script"),
        ]
    }

    @Test("a closed pipe: exit 141, nothing on stderr, no trap")
    func closedPipe() throws {
        for (name, arguments, _) in try Self.writers() {
            let result = try ShellRun.run(arguments, stdout: .closedPipe)
            #expect(result.signal == nil && result.code == 141, "\(name): \(result)")
            #expect(result.stderr.isEmpty, "\(name): \(result.stderr)")
            #expect(result.seconds < 10, "\(name): took \(result.seconds) s")
        }
    }

    @Test("/dev/full: exit 74 and one line naming what could not be written")
    func fullDevice() throws {
        for (name, arguments, what) in try Self.writers() {
            let result = try ShellRun.run(arguments, stdout: .full)
            #expect(result.signal == nil && result.code == 74, "\(name): \(result)")
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1, "\(name): \(result.stderr)")
            #expect(lines.first?.hasPrefix("cdscript: could not write \(what) to standard output") == true, "\(name): \(result.stderr)")
            #expect(result.seconds < 10, "\(name): took \(result.seconds) s")
        }
    }

    @Test("a JUnit report that cannot be written fails the run (74), and the report says so")
    func junitFull() throws {
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-shell-\(UUID().uuidString).txt").path
        let result = try ShellRun.run(["test", "--junit", "/dev/full", ShellRun.inPackage("tests/cancel_spec.lua")], stdout: .file(report))
        #expect(result.code == 74, "\(result)")
        #expect(result.stderr.contains("cannot write the JUnit report /dev/full: No space left on device"), "\(result.stderr)")
        // /dev/full is written in place, never replaced by a regular file.
        var info = stat()
        #expect(stat("/dev/full", &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR)
    }

    @Test("stored countdowns stay stored when the output fails")
    func storeKept() throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-shell-store-\(UUID().uuidString)").path
        let script = try BinaryRunner.script(#"countdown.start{ id = "kept", seconds = 600, persist = true } print("hello")"#)
        for output in [ShellRun.Output.closedPipe, .full] {
            let result = try ShellRun.run(["--state-dir", store, script], stdout: output)
            #expect(result.code == 141 || result.code == 74, "\(result)")
            let listed = try BinaryRunner.run(["list", "--state-dir", store])
            #expect(listed.status == 0 && listed.stdout.contains("kept"), "\(listed.stdout) \(listed.stderr)")
        }
    }
}

/// A run exits 0 only when it ends by itself.
@Suite("Ending early is not success", .serialized)
struct EarlyEndTests {
    @Test("q with the timer running: 8; Ctrl-C: 130; SIGTERM: 143")
    func timerEndedEarly() throws {
        let quit = try ShellRun.run(["timer", "60", "--plain"], stdout: .file("/dev/null"), input: "q\n")
        #expect(quit.code == 8, "\(quit)")
        let interrupted = try BinaryRunner.run(["timer", "60", "--plain"], signal: SIGINT)
        #expect(interrupted.status == 130, "\(interrupted.stderr)")
        let terminated = try BinaryRunner.run(["timer", "60", "--plain"], signal: SIGTERM)
        #expect(terminated.status == 143, "\(terminated.stderr)")
        let finished = try BinaryRunner.run(["timer", "0.3", "--plain"])
        #expect(finished.status == 0, "\(finished.stderr)")
    }

    @Test("q ends a script's run early too, and Ctrl-C ends run and watch with 130")
    func runAndWatch() throws {
        let quit = try ShellRun.run([ShellRun.inPackage("examples/sms_code.lua"), "30"], stdout: .file("/dev/null"), input: "q\n")
        #expect(quit.code == 8, "\(quit)")
        let interrupted = try BinaryRunner.run([ShellRun.inPackage("examples/sms_code.lua"), "30"], signal: SIGINT)
        #expect(interrupted.status == 130)
        // (watch reads keys in a terminal only: its `q` is in WatchTerminalTests.)
        let store = try ShellRun.storeWithCountdown()
        let watchInterrupted = try BinaryRunner.run(["watch", "--plain", "--state-dir", store], signal: SIGINT)
        #expect(watchInterrupted.status == 130)
    }

    @Test("q after every countdown ended is success")
    func quitAfterTheEnd() throws {
        // The view stays open after its countdown ends; `q` comes after.
        let script = try BinaryRunner.script(#"""
            view.label{ id = "l", text = "waiting" }
            countdown.start{ seconds = 0.2, on_done = function() view.set("l", { text = "done" }) end }
            """#)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-shell-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let fifo = dir + "/keys"
        #expect(mkfifo(fifo, 0o600) == 0)
        // A writer that sends `q` a second after the start, long after the countdown ended.
        let writer = Thread {
            let fd = open(fifo, O_WRONLY)
            usleep(1_000_000)
            _ = "q\n".withCString { write(fd, $0, 2) }
            close(fd)
        }
        writer.start()
        let result = try BinaryRunner.run(["--plain", script], timeout: 20, environment: [:], stdinPath: fifo)
        #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
        #expect(result.stdout.contains("done"))
    }

    @Test("--exec that cannot start is refused at the start, not at the end: 127 when missing, 126 when not executable, a shell line pointed to --exec-shell; --exec alone is bad usage")
    func execFailures() throws {
        // An hour's timer: refused at once, or the run would time out.
        let missing = try BinaryRunner.run(["timer", "1h", "--plain", "--exec", "/nonexistent/prog"])
        #expect(missing.status == 127, "\(missing.stderr)")
        #expect(missing.stderr.contains("--exec: no program at /nonexistent/prog"), "\(missing.stderr)")
        #expect(!missing.stdout.contains("clock:"), "refused before the timer started: \(missing.stdout)")
        let onPath = try BinaryRunner.run(["timer", "1h", "--exec", "no-such-program-\(UUID().uuidString)"])
        #expect(onPath.status == 127 && onPath.stderr.contains("\" on PATH"), "\(onPath.stderr)")
        let shellLine = try BinaryRunner.run(["timer", "1h", "--exec", "date >> f"])
        #expect(shellLine.status == 127, "\(shellLine.stderr)")
        #expect(shellLine.stderr.contains("never a shell line: --exec-shell 'date >> f' runs one"), "\(shellLine.stderr)")
        // A file of its own without execute bits (/etc/hostname is 0755 on some machines).
        let plainFile = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-noexec-\(UUID().uuidString)")
        try "not a program\n".write(to: plainFile, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: plainFile.path)
        defer { try? FileManager.default.removeItem(at: plainFile) }
        let notExecutable = try BinaryRunner.run(["timer", "1h", "--plain", "--exec", plainFile.path])
        #expect(notExecutable.status == 126, "\(notExecutable.stderr)")
        #expect(notExecutable.stderr.contains("is not executable"), "\(notExecutable.stderr)")
        let alone = try BinaryRunner.run(["timer", "5", "--exec"])
        #expect(alone.status == 64)
        #expect(alone.stderr.contains("--exec needs a program to run"))
        let works = try BinaryRunner.run(["timer", "0.2", "--plain", "--exec", "true"])
        #expect(works.status == 0, "\(works.stderr)")
        let both = try BinaryRunner.run(["timer", "5", "--exec-shell", "true", "--exec", "true"])
        #expect(both.status == 64 && both.stderr.contains("give one of them"), "\(both.stderr)")
    }

    @Test("--exec-shell LINE runs a shell line at the end (a redirection), built-in and ejected; an ejected timer refuses a missing --exec program at the start")
    func execShell() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-execshell-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let ejected = dir.appendingPathComponent("mytimer.lua")
        try BinaryRunner.run(["timer", "--eject"]).stdout.write(to: ejected, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("out.txt")
        for arguments in [["timer", "0.2"], [ejected.path, "0.2"]] {
            let result = try BinaryRunner.run(arguments + ["--plain", "--exec-shell", "echo ran >> '\(out.path)'"])
            #expect(result.status == 0, "\(result.stderr)")
        }
        // The command runs on its own; give it a moment to have written.
        var text = ""
        for _ in 0..<50 where text.split(separator: "\n").count < 2 {
            text = (try? String(contentsOf: out, encoding: .utf8)) ?? ""
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(text == "ran\nran\n", "\(text)")
        let missing = try BinaryRunner.run([ejected.path, "1h", "--exec", "no-such-program-\(UUID().uuidString)"])
        #expect(missing.status == 2 && missing.stderr.contains("exec: no program"), "\(missing.stderr)")
    }
}

/// Negative numbers are values wherever a number is expected.
@Suite("Taking time off on the command line")
struct NegativeValueTests {
    @Test("append ID -30 takes 30 s off; taking off all that is left finishes it once")
    func appendNegative() throws {
        let store = try ShellRun.storeWithCountdown()
        let off = try BinaryRunner.run(["append", "kept", "-30", "--state-dir", store])
        #expect(off.status == 0, "\(off.stderr)")
        #expect(off.stdout.hasPrefix("kept: running, 00:09:"), "\(off.stdout)")
        let all = try BinaryRunner.run(["append", "kept", "-1000", "--state-dir", store])
        #expect(all.status == 0, "\(all.stderr)")
        #expect(all.stdout.hasPrefix("kept: finished"), "\(all.stdout)")
        let listed = try BinaryRunner.run(["list", "--state-dir", store])
        #expect(listed.status == 0 && listed.stdout.contains("finished"), "\(listed.stdout) \(listed.stderr)")
    }

    @Test("negative values reach the options' own messages, not 'missing value'")
    func negativeOptions() throws {
        let speed = try BinaryRunner.run(["timer", "5", "--speed", "-1"])
        #expect(speed.status == 64)
        #expect(speed.stderr.contains("--speed must be a finite number greater than 0 (time cannot stand still or run backwards), got -1"), "\(speed.stderr)")
        let timer = try BinaryRunner.run(["timer", "-5"])
        #expect(timer.status == 64)
        #expect(timer.stderr.contains("a timer counts down a duration longer than 0, got \"-5\""), "\(timer.stderr)")
        let every = try BinaryRunner.run(["timer", "5", "--every", "-1"])
        #expect(every.status == 64 && every.stderr.contains("--every must be"), "\(every.stderr)")
        let zero = try BinaryRunner.run(["append", "kept", "0"])
        #expect(zero.status == 64 && zero.stderr.contains("other than 0"), "\(zero.stderr)")
        let unknown = try BinaryRunner.run(["append", "kept", "--bogus"])
        #expect(unknown.status == 64 && unknown.stderr.contains("Unknown option '--bogus'"), "\(unknown.stderr)")
    }
}

/// The view's frames are a writer too: a terminal that goes away under a run
/// that is not its session (no SIGHUP comes) fails the next frame with EIO.
@Suite("The view's frames into a terminal that went away")
struct ViewFrameFailureTests {
    @Test("a pseudo-terminal whose other side closed: exit 74, one line naming the view")
    func terminalGone() throws {
        // Glibc's Swift module leaves the pty functions out (they need _XOPEN_SOURCE).
        typealias FDCall = @convention(c) (Int32) -> Int32
        typealias NameCall = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?
        func libc<T>(_ name: String, as: T.Type) throws -> T {
            unsafeBitCast(try #require(dlsym(UnsafeMutableRawPointer(bitPattern: 0), name)), to: T.self)
        }
        let master = try libc("posix_openpt", as: FDCall.self)(O_RDWR | O_NOCTTY)
        try #require(master >= 0)
        // Only this side holds the master: once it closes, the terminal is gone.
        _ = fcntl(master, F_SETFD, FD_CLOEXEC)
        try #require(try libc("grantpt", as: FDCall.self)(master) == 0 && libc("unlockpt", as: FDCall.self)(master) == 0)
        let slavePath = String(cString: try #require(try libc("ptsname", as: NameCall.self)(master)))
        let slave = open(slavePath, O_RDWR | O_NOCTTY | O_CLOEXEC)
        try #require(slave >= 0)
        let errPath = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-pty-\(UUID().uuidString)").path
        let errFD = open(errPath, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        defer { close(errFD); try? FileManager.default.removeItem(atPath: errPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, slave, 0)
        posix_spawn_file_actions_adddup2(&actions, slave, 1)
        posix_spawn_file_actions_adddup2(&actions, errFD, 2)
        let argv = [BinaryRunner.binary.path, "timer", "60"]
        var cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for p in cArgs { free(p) } }
        var pid: pid_t = 0
        let status = withCleanSignalAttributes { posix_spawn(&pid, argv[0], &actions, &$0, &cArgs, environ) }
        close(slave)
        try #require(status == 0)
        // Read frames until the view is drawn, then take the terminal away.
        var seen = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        let started = Date()
        while Date().timeIntervalSince(started) < 20, !String(decoding: seen, as: UTF8.self).contains("\u{1B}[?1049h") {
            var p = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            if poll(&p, 1, 100) == 1 {
                let n = read(master, &buffer, buffer.count)
                if n > 0 { seen.append(contentsOf: buffer[..<n]) }
            }
        }
        close(master)
        var wstatus: Int32 = 0
        let closed = Date()
        while waitpid(pid, &wstatus, WNOHANG) == 0 {
            if Date().timeIntervalSince(closed) > 30 { kill(pid, SIGKILL); waitpid(pid, &wstatus, 0); break }
            usleep(10_000)
        }
        let stderr = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        #expect(wstatus & 0x7f == 0 && (wstatus >> 8) & 0xff == 74, "status \(wstatus): \(stderr)")
        #expect(stderr.contains("cdscript: could not write the view to standard output: Input/output error"), "\(stderr)")
    }
}
