import CountdownCore

#if canImport(Glibc)
import Glibc
#endif

/// Where a program named on a command line is, found as `posix_spawnp` finds it:
/// a name with a slash as it is, any other on PATH.
public enum ProgramPath {
    /// What looking a program up found.
    public enum Lookup: Equatable, Sendable {
        case found(String)
        /// Nothing of that name (exit 127, as a shell says).
        case missing
        /// A file of that name that cannot be executed (exit 126).
        case notExecutable(String)
    }

    public static func lookup(_ name: String) -> Lookup {
        if name.isEmpty { return .missing }
        if name.contains("/") {
            if access(name, X_OK) == 0 && !isFolder(name) { return .found(name) }
            return access(name, F_OK) == 0 ? .notExecutable(name) : .missing
        }
        let path = ProcessEnvironment.value("PATH") ?? "/usr/local/bin:/usr/bin:/bin"
        var unusable: String?
        for dir in path.split(separator: ":", omittingEmptySubsequences: false) {
            let candidate = (dir.isEmpty ? "." : String(dir)) + "/" + name
            if access(candidate, X_OK) == 0 && !isFolder(candidate) { return .found(candidate) }
            if unusable == nil, access(candidate, F_OK) == 0 { unusable = candidate }
        }
        return unusable.map { .notExecutable($0) } ?? .missing
    }

    /// The program's path, or nil.
    public static func find(_ name: String) -> String? {
        if case .found(let path) = lookup(name) { return path }
        return nil
    }

    private static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}
