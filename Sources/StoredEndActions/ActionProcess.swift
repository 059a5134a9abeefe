#if canImport(Glibc)
import Glibc
#endif

/// Starts the programs of end actions: a configured command line through
/// `/bin/sh -c` (it was written by whoever runs `serve`, as a shell line), a
/// built-in's program (`notify-send`) with its arguments directly. The child gets
/// `/dev/null` as its input, serve's output and error (the log), the default
/// signal dispositions and an empty signal mask, and the environment of serve
/// plus `extraEnvironment`.
enum ActionProcess {
    /// Starts `program` (a path, or a name looked up on PATH) with `arguments`
    /// (`arguments[0]` is the name it is given). Returns its pid, or the error.
    static func spawn(_ program: String, _ arguments: [String], extraEnvironment: [String: String]) -> Result<pid_t, SpawnError> {
        var environment: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                environment[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            pointer += 1
        }
        for (key, value) in extraEnvironment { environment[key] = value }
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for p in argv { free(p) }
            for p in envp { free(p) }
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGCHLD, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var pid: pid_t = 0
        let status = program.contains("/")
            ? posix_spawn(&pid, program, &actions, &attributes, argv, envp)
            : posix_spawnp(&pid, program, &actions, &attributes, argv, envp)
        guard status == 0 else { return .failure(SpawnError(program: program, message: String(cString: strerror(status)))) }
        return .success(pid)
    }

    /// True when `name` is an executable file in a folder of PATH.
    static func isOnPath(_ name: String) -> Bool {
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { access("\($0)/\(name)", X_OK) == 0 }
    }

    /// How a child ended, from `waitpid`'s status, for the log.
    static func describe(status: Int32) -> String {
        let signal = status & 0x7F
        if signal == 0 { return "exit \((status >> 8) & 0xFF)" }
        return "killed by signal \(signal)"
    }
}

/// A program that could not be started.
struct SpawnError: Error, CustomStringConvertible {
    var program: String
    var message: String
    var description: String { "cannot start \(program): \(message)" }
}
