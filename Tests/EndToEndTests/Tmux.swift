import Foundation

/// A private tmux server with one detached pane of a fixed size running the real
/// binary: keys go in with `send-keys`, the screen comes out with `capture-pane`,
/// and the pane's terminal modes (alternate screen, cursor) with `display`.
/// A shell waits after the program ends and prints its exit status, so the
/// screen and the terminal modes it left behind can be read (tmux's own
/// remain-on-exit would change the cursor mode of a dead pane).
final class Tmux {
    static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") || which("tmux") != nil }

    let socket = "cdscript-test-\(UUID().uuidString.prefix(8))"
    private let config: URL

    /// Starts `arguments` (the binary's) in a `columns` x `rows` pane. With
    /// `recording`, everything the program writes goes to that file too, from its
    /// first byte: the program waits until the pane is piped there.
    init(_ arguments: [String], columns: Int, rows: Int, environment: [String: String] = [:], recording: URL? = nil) throws {
        config = FileManager.default.temporaryDirectory.appendingPathComponent("\(socket).conf")
        try "set -g status off\nset -g default-terminal xterm-256color\n"
            .write(to: config, atomically: true, encoding: .utf8)
        var command = ["env", "-u", "NO_COLOR"]
        command += environment.map { "\($0.key)=\($0.value)" }
        command += [BinaryRunner.binary.path] + arguments
        let program = command.map(Self.quote).joined(separator: " ")
        // The shell shares the program's process group, so Ctrl-C reaches it too:
        // a trap (reset to the default in the program) keeps it alive to report.
        let go = FileManager.default.temporaryDirectory.appendingPathComponent("\(socket).go")
        let wait = recording == nil ? "" : "until [ -e \(Self.quote(go.path)) ]; do sleep 0.01; done; rm -f \(Self.quote(go.path)); "
        let script = "trap 'true' INT; \(wait)cd \(Self.quote(BinaryRunner.packageRoot.path)) && \(program); echo \"[exit $?]\"; exec sleep 600"
        let shellCommand = "sh -c " + Self.quote(script)
        try tmux(["-f", config.path, "new-session", "-d", "-s", "t", "-x", "\(columns)", "-y", "\(rows)", shellCommand])
        if let recording {
            try tmux(["pipe-pane", "-o", "-t", "t", "cat >> \(Self.quote(recording.path))"])
            FileManager.default.createFile(atPath: go.path, contents: nil)
        }
    }

    deinit { stop() }

    /// Ends the tmux server and everything in it.
    func stop() {
        _ = try? tmux(["kill-server"])
        try? FileManager.default.removeItem(at: config)
    }

    /// The pane's text, one line per row; with `escapes`, SGR attributes included.
    func screen(escapes: Bool = false) throws -> String {
        try tmux(["capture-pane", "-p", "-t", "t"] + (escapes ? ["-e"] : []))
    }

    /// The pane's rows (capture-pane ends the last one with a newline too).
    func lines() throws -> [String] {
        var rows = try screen().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if rows.last == "" { rows.removeLast() }
        return rows
    }

    /// A tmux format about the pane, such as `#{alternate_on}`.
    func display(_ format: String) throws -> String {
        try tmux(["display-message", "-p", "-t", "t", format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Any tmux command on this server (`set -g status-right ...`); its output.
    @discardableResult
    func command(_ arguments: String...) throws -> String {
        try tmux(arguments)
    }

    func send(_ keys: String...) throws {
        try tmux(["send-keys", "-t", "t"] + keys)
    }

    func resize(columns: Int, rows: Int) throws {
        try tmux(["resize-window", "-t", "t", "-x", "\(columns)", "-y", "\(rows)"])
    }

    /// The pid of the program under test (the child of the pane's shell).
    func programPID() throws -> Int32? {
        guard let shell = Int32(try display("#{pane_pid}")),
              let children = try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)
        else { return nil }
        return children.split(separator: " ").first.flatMap { Int32($0) }
    }

    /// The program's exit status once it has ended, as the waiting shell prints it.
    var exitStatus: Int? {
        guard let text = try? screen(), let range = text.range(of: #"\[exit [0-9]+\]"#, options: .regularExpression) else { return nil }
        return Int(text[range].dropFirst(6).dropLast())
    }
    var hasEnded: Bool { exitStatus != nil }

    /// Polls until `condition` holds (every 20 ms), or throws after `timeout` seconds.
    func waitUntil(_ what: String, timeout: Double = 10, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while try !condition() {
            guard Date() < deadline else {
                throw TimedOut(what: "\(what); the pane shows:\n\((try? screen()) ?? "?")")
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    func waitForText(_ text: String, timeout: Double = 10) throws {
        try waitUntil("\"\(text)\" on screen", timeout: timeout) { try screen().contains(text) }
    }

    /// Runs tmux with posix_spawn and waitpid: Foundation's Process does not
    /// notice the end of a tmux client whose server (its fork) lives on.
    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        let outPath = FileManager.default.temporaryDirectory.appendingPathComponent("\(socket)-\(UUID().uuidString).out").path
        defer { unlink(outPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ["tmux", "-L", socket] + arguments
        let environment = ProcessInfo.processInfo.environment.filter { $0.key != "TMUX" }.map { "\($0.key)=\($0.value)" }
        var cArgs = argv.map { strdup($0) } + [nil]
        var cEnv = environment.map { strdup($0) } + [nil]
        defer { (cArgs + cEnv).forEach { free($0) } }
        // tmux, and so the program under test, starts with no signal blocked.
        var pid: pid_t = 0
        let spawned = withCleanSignalAttributes { posix_spawnp(&pid, "tmux", &actions, &$0, &cArgs, &cEnv) }
        guard spawned == 0 else { throw TmuxFailed(arguments: arguments, status: spawned) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exitCode = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        guard exitCode == 0 else { throw TmuxFailed(arguments: arguments, status: exitCode) }
        return String(decoding: FileManager.default.contents(atPath: outPath) ?? Data(), as: UTF8.self)
    }

    private static func quote(_ s: String) -> String {
        "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    private static func which(_ name: String) -> String? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
            .map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

struct TmuxFailed: Error, CustomStringConvertible {
    let arguments: [String]
    let status: Int32
    var description: String { "tmux \(arguments.joined(separator: " ")) exited \(status)" }
}
