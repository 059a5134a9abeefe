#if canImport(Glibc)
import CommandEnding
import Glibc
#endif
import ArgumentParser
import TerminalView
import StoreViews

/// cdscript-serve, the program installed beside cdscript that links the web
/// server (CountdownWeb, SwiftNIO, BoringSSL), which cdscript does not: linked
/// in, they cost every command about 3 ms of CPU at start and 12 MB
/// (docs/performance.md). `serve` hands its process over to it; `run --serve`
/// starts it as a child that serves the page (ViewServing).
public enum ServeProgram {
    static let name = "cdscript-serve"

    /// Beside the running executable (its real path: a symlink to cdscript
    /// names the folder it points into).
    static var path: String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return name }
        let executable = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = executable.lastIndex(of: "/") else { return name }
        return String(executable[...slash]) + name
    }

    /// Why `path` cannot be run, or nil when it can (checked before a child is started:
    /// its failure would otherwise show only as its exit).
    static func unusable(_ path: String) -> String? {
        if access(path, F_OK) != 0 {
            return "\(path) is missing: it is installed beside cdscript (scripts/install installs both)"
        }
        if access(path, X_OK) != 0 {
            return "\(path) cannot be executed: \(String(cString: strerror(errno)))"
        }
        return nil
    }

    /// Replaces this process with cdscript-serve given `arguments` (execv: the
    /// pid, signals and exit status are then serve's own), or exits 14 saying why not.
    public static func handOver(arguments: [String]) throws -> Never {
        let program = path
        _ = StandardOutput.flush()
        // A mask and handlers of this process must not follow it into serve.
        var none = sigset_t()
        sigemptyset(&none)
        sigprocmask(SIG_SETMASK, &none, nil)
        signal(SIGPIPE, SIG_DFL)
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        execv(program, argv)
        let reason = errno
        for pointer in argv { free(pointer) }
        let why = reason == ENOENT ? unusable(program) ?? "\(program) is missing" : "\(program) cannot be executed: \(String(cString: strerror(reason)))"
        printError("cdscript serve: the web server program cannot start: \(why)")
        throw ExitCode(ExitStatus.serveProgramUnusable.rawValue)
    }
}
