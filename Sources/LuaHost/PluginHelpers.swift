import CLua
import CLuaShim
import CountdownCore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Host functions behind the plugin machinery and the built-in plugins. Scripts
/// never see them as globals: the prelude and built-in plugins get them as arguments.
extension LuaHost {
    static let pluginDirectories: cd_host_function = { L, context in
        hostCall(L, context) { host, L throws(APIError) in
            lua_createtable(L, Int32(host.pluginPath.count), 0)
            for (i, dir) in host.pluginPath.enumerated() {
                L.push(dir.path)
                lua_rawseti(L, -2, lua_Integer(i + 1))
            }
            return 1
        }
    }

    static let fileExists: cd_host_function = { L, context in
        hostCall(L, context) { _, L throws(APIError) in
            var isDirectory: ObjCBool = false
            let exists = L.string(at: 1).map { FileManager.default.fileExists(atPath: $0, isDirectory: &isDirectory) } ?? false
            lua_pushboolean(L, exists && !isDirectory.boolValue ? 1 : 0)
            return 1
        }
    }

    /// `load_text_file(path)`: the chunk, or nil and a message with the file and line.
    static let loadTextFile: cd_host_function = { L, context in
        hostCall(L, context) { _, L throws(APIError) in
            guard let path = L.string(at: 1) else { throw APIError("load_text_file: expected a path") }
            if luaL_loadfilex(L, path, "t") != LUA_OK {
                lua_pushnil(L)
                lua_rotate(L, -2, 1)
                return 2
            }
            return 1
        }
    }

    static let builtinSource: cd_host_function = { L, context in
        hostCall(L, context) { _, L throws(APIError) in
            if let name = L.string(at: 1), let source = BuiltinPlugins.sources[name] {
                L.push(source)
            } else {
                lua_pushnil(L)
            }
            return 1
        }
    }

    /// Under `--sandbox`: true when `path` resolves to a file inside the script's folder.
    static let pathAllowed: cd_host_function = { L, context in
        hostCall(L, context) { host, L throws(APIError) in
            lua_pushboolean(L, L.string(at: 1).map { host.isInsideScriptDirectory($0) } == true ? 1 : 0)
            return 1
        }
    }

    func isInsideScriptDirectory(_ path: String) -> Bool {
        guard let directory = scriptDirectory, let root = Self.realPath(directory) else { return false }
        let url = URL(fileURLWithPath: path)
        // A file that does not exist yet is judged by its folder.
        let resolved = Self.realPath(url.path)
            ?? Self.realPath(url.deletingLastPathComponent().path).map { $0 + "/" + url.lastPathComponent }
        guard let resolved else { return false }
        return resolved.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// `bell()`: rings through the view while it is open full screen (it owns the
    /// terminal then), else writes BEL when stdout is a terminal; false and a reason otherwise.
    static let ringBell: cd_host_function = { L, context in
        hostCall(L, context) { host, L throws(APIError) in
            if let controller = host.view?.controller, controller.isOpen, !controller.isClosed,
               case .screen = controller.output {
                controller.bell()
                lua_pushboolean(L, 1)
                return 1
            }
            guard isatty(STDOUT_FILENO) != 0 else {
                lua_pushboolean(L, 0)
                L.push("standard output is not a terminal")
                return 2
            }
            _ = "\u{07}".withCString { write(STDOUT_FILENO, $0, 1) }
            lua_pushboolean(L, 1)
            return 1
        }
    }

    /// `which(name)`: the executable's path on PATH, or nil.
    static let whichCommand: cd_host_function = { L, context in
        hostCall(L, context) { _, L throws(APIError) in
            guard let name = L.string(at: 1) else { throw APIError("which: expected a command name") }
            if let path = LuaHost.executablePath(name) { L.push(path) } else { lua_pushnil(L) }
            return 1
        }
    }

    static func executablePath(_ name: String) -> String? {
        if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = dir + "/" + name
            if access(candidate, X_OK) == 0 { return String(candidate) }
        }
        return nil
    }

    /// `spawn(argv)`: runs a command from an argument list, never through a shell,
    /// without waiting for it. Returns its pid, or nil and why not.
    static let spawnCommand: cd_host_function = { L, context in
        hostCall(L, context) { host, L throws(APIError) in
            if host.vm.limits.sandbox {
                lua_pushnil(L)
                L.push("running commands is disabled by --sandbox")
                return 2
            }
            guard L.type(at: 1) == LUA_TTABLE else { throw APIError("spawn: expected an argument list, got \(L.typeName(at: 1))") }
            var argv: [String] = []
            let count = lua_rawlen(L, 1)
            guard count > 0 else { throw APIError("spawn: the argument list is empty") }
            for i in 1...count {
                lua_rawgeti(L, 1, lua_Integer(i))
                guard let argument = L.string(at: -1) else {
                    throw APIError("spawn: argument \(i) must be a string, got \(L.typeName(at: -1))")
                }
                L.pop()
                argv.append(argument)
            }
            switch LuaHost.spawn(argv) {
            case .success(let pid):
                lua_pushinteger(L, lua_Integer(pid))
                return 1
            case .failure(let reason):
                lua_pushnil(L)
                L.push(reason.message)
                return 2
            }
        }
    }

    static func spawn(_ argv: [String]) -> Result<pid_t, APIError> {
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
            return .failure(APIError("cannot run \(argv[0]): \(String(cString: strerror(status)))"))
        }
        // Reap it the moment it exits: a zombie child confuses whoever waits for
        // "any child" in this process. The thread never touches Lua.
        let child = pid
        Thread.detachNewThread {
            var status: Int32 = 0
            while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        }
        return .success(pid)
    }


    /// `append_line(path, text)`: appends one line to a file (created when missing).
    /// Under `--sandbox` only files inside the script's folder.
    static let appendLine: cd_host_function = { L, context in
        hostCall(L, context) { host, L throws(APIError) in
            guard let path = L.string(at: 1), let line = L.string(at: 2) else {
                throw APIError("append_line: expected a path and a line")
            }
            if host.vm.limits.sandbox && !host.isInsideScriptDirectory(path) {
                lua_pushnil(L)
                L.push("'\(path)' is outside the script's folder (--sandbox)")
                return 2
            }
            let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
            guard fd >= 0 else {
                lua_pushnil(L)
                L.push("cannot open \(path): \(String(cString: strerror(errno)))")
                return 2
            }
            defer { close(fd) }
            let data = Array((line + "\n").utf8)
            let written = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard written == data.count else {
                lua_pushnil(L)
                L.push("cannot write \(path): \(String(cString: strerror(errno)))")
                return 2
            }
            lua_pushboolean(L, 1)
            return 1
        }
    }

    /// `warn(text)`: one line for the user (stderr by default; see `reportNotice`).
    static let warnLine: cd_host_function = { L, context in
        hostCall(L, context) { host, L throws(APIError) in
            host.reportNotice(L.string(at: 1) ?? "")
            return 0
        }
    }

    /// `wall_time()`: the wall clock as UTC ISO 8601 with milliseconds.
    static let wallTime: cd_host_function = { L, context in
        hostCall(L, context) { host, L throws(APIError) in
            let ns = host.scheduler.clock.wallNow()
            let date = Date(timeIntervalSince1970: Double(ns / 1_000_000) / 1000)
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            L.push(formatter.string(from: date))
            return 1
        }
    }
}
