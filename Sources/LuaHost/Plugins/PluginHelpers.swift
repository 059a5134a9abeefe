import CLua
import CLuaShim
import CountdownCore
import FoundationEssentials
import TerminalView

#if canImport(Glibc)
import Glibc
#endif

/// Host functions behind the built-in plugins. Scripts never see them as
/// globals: built-in plugins get them as arguments.
extension PluginBinding {
    /// `bell()`: rings through the view while it is open full screen (it owns the
    /// terminal then), else writes BEL when stdout is a terminal; false and a reason otherwise.
    static let ringBell: cd_host_function = { L, context in
        LuaHost.hostCall(L, context) { host, L throws(APIError) in
            if let recorder = host.plugins.recorder {
                recorder.record(.init(plugin: "bell"))
                L.push(true)
                return 1
            }
            if let controller = host.view?.controller, controller.isOpen, !controller.isClosed,
               case .screen = controller.output {
                controller.bell()
                L.push(true)
                return 1
            }
            guard isatty(STDOUT_FILENO) != 0 else {
                L.push(false)
                L.push("standard output is not a terminal")
                return 2
            }
            _ = "\u{07}".withCString { write(STDOUT_FILENO, $0, 1) }
            L.push(true)
            return 1
        }
    }

    /// `which(name)`: the executable's path on PATH, or nil.
    static let whichCommand: cd_host_function = { L, context in
        LuaHost.hostCall(L, context) { host, L throws(APIError) in
            guard let name = L.string(at: 1) else { throw APIError("which: expected a command name") }
            // In tests nothing runs, so every command is "there" (and recorded by spawn).
            if host.plugins.recorder != nil { L.push(name); return 1 }
            if let path = PluginBinding.executablePath(name) { L.push(path) } else { L.pushNil() }
            return 1
        }
    }

    static func executablePath(_ name: String) -> String? { ProgramPath.find(name) }

    /// `spawn(argv)`: runs a command from an argument list, never through a shell,
    /// without waiting for it. Returns its pid, or nil and why not.
    static let spawnCommand: cd_host_function = { L, context in
        LuaHost.hostCall(L, context) { host, L throws(APIError) in
            if host.vm.limits.sandbox {
                L.pushNil()
                L.push("running commands is disabled by --sandbox")
                return 2
            }
            guard L.type(at: 1) == LUA_TTABLE else { throw APIError("spawn: expected an argument list, got \(L.typeName(at: 1))") }
            var argv: [String] = []
            let count = L.rawLength(at: 1)
            guard count > 0 else { throw APIError("spawn: the argument list is empty") }
            for i in 1...count {
                L.rawItem(1, i)
                guard let argument = L.string(at: -1) else {
                    throw APIError("spawn: argument \(i) must be a string, got \(L.typeName(at: -1))")
                }
                L.pop()
                argv.append(argument)
            }
            if let recorder = host.plugins.recorder {
                recorder.record(.init(plugin: L.string(at: 2) ?? "exec", argv: argv))
                lua_pushinteger(L.raw, 0)
                return 1
            }
            switch PluginBinding.spawn(argv) {
            case .success(let pid):
                L.push(Int(pid))
                return 1
            case .failure(let reason):
                if host.plugins.spawnFailure == nil { host.plugins.spawnFailure = reason.errno }
                L.pushNil()
                L.push(reason.message)
                return 2
            }
        }
    }

    /// Why a command could not be started: posix_spawnp's errno and a message.
    struct SpawnError: Error {
        let errno: Int32
        let message: String
    }

    static func spawn(_ argv: [String]) -> Result<pid_t, SpawnError> {
        var pointers: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) }
        pointers.append(nil)
        defer { for p in pointers { free(p) } }
        var pid: pid_t = 0
        // The child starts with no signal blocked, whatever the calling thread's
        // mask (caught signals are reset to their defaults by exec itself).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        let status = posix_spawnp(&pid, argv[0], nil, &attributes, &pointers, environ)
        if status != 0 {
            return .failure(SpawnError(errno: status, message: "cannot run \(argv[0]): \(String(cString: strerror(status)))"))
        }
        // Reap it the moment it exits: a zombie child confuses whoever waits for
        // "any child" in this process. The thread never touches Lua.
        let child = pid
        let reaper = DetachedThread.start {
            var status: Int32 = 0
            while waitpid(child, &status, 0) < 0 && errno == EINTR {}
            ChildExits.record(child, status: status)
        }
        // Without a reaper the command still runs; it stays a zombie until this process ends.
        if let reaper { StandardError.line("cdscript: cannot wait for \(argv[0]) (pid \(child)): \(reaper)") }
        return .success(pid)
    }


    /// `append_line(path, text [, plugin])`: appends one line to a file (created
    /// when missing). Under `--sandbox` only files inside the script's folder.
    /// `plugin` names the caller in a test's record (`log` when not given).
    static let appendLine: cd_host_function = { L, context in
        LuaHost.hostCall(L, context) { host, L throws(APIError) in
            guard let path = L.string(at: 1), let line = L.string(at: 2) else {
                throw APIError("append_line: expected a path and a line")
            }
            if let recorder = host.plugins.recorder {
                recorder.record(.init(plugin: L.string(at: 3) ?? "log", path: path, line: line))
                L.push(true)
                return 1
            }
            // Under --sandbox only inside the script's folder, checked on the file
            // actually opened (no symbolic link followed; see cd_open_append).
            let root = host.vm.limits.sandbox ? (host.plugins.scriptDirectory ?? "/nonexistent/") : nil
            let fd = root.map { cd_open_append(path, $0) } ?? cd_open_append(path, nil)
            if fd == -2 {
                L.pushNil()
                L.push("'\(path)' is outside the script's folder (--sandbox)")
                return 2
            }
            guard fd >= 0 else {
                L.pushNil()
                L.push("cannot open \(path): \(String(cString: strerror(errno)))")
                return 2
            }
            defer { close(fd) }
            let data = Array((line + "\n").utf8)
            let written = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard written == data.count else {
                L.pushNil()
                L.push("cannot write \(path): \(String(cString: strerror(errno)))")
                return 2
            }
            L.push(true)
            return 1
        }
    }

    /// `replace_file(path, text)`: replaces the file at `path` with `text`, whole
    /// (FileReplacement). Not under `--sandbox`, where a script writes no file
    /// but through `append_line` inside its folder.
    static let replaceFile: cd_host_function = { L, context in
        LuaHost.hostCall(L, context) { host, L throws(APIError) in
            guard let path = L.string(at: 1), let text = L.string(at: 2) else {
                throw APIError("replace_file: expected a path and a text")
            }
            if let recorder = host.plugins.recorder {
                recorder.record(.init(plugin: "outfile", path: path, line: text))
                L.push(true)
                return 1
            }
            if host.vm.limits.sandbox {
                L.pushNil()
                L.push("cannot write \(path) under --sandbox")
                return 2
            }
            do throws(FileReplacement.Failure) {
                try FileReplacement.write(text, to: path, durable: false)
            } catch {
                L.pushNil()
                L.push("cannot write \(path): \(error.description)")
                return 2
            }
            L.push(true)
            return 1
        }
    }

    /// `warn(text)`: one line for the user (stderr by default; see `reportNotice`).
    static let warnLine: cd_host_function = { L, context in
        LuaHost.hostCall(L, context) { host, L throws(APIError) in
            // Plugins put countdown ids and program output in their warnings.
            host.plugins.reportNotice(VisibleText.escaped(L.string(at: 1) ?? ""))
            return 0
        }
    }

    /// `wall_time()`: the wall clock as UTC ISO 8601 with milliseconds.
    static let wallTime: cd_host_function = { L, context in
        LuaHost.hostCall(L, context) { host, L throws(APIError) in
            // Truncated to the millisecond, as the date formatter it replaces was given it
            // (UTCTimestamp writes what that formatter wrote, without making one per call).
            let ns = host.scheduler.clock.wallNow()
            L.push(UTCTimestamp.iso8601(ns / 1_000_000 * 1_000_000))
            return 1
        }
    }
}
