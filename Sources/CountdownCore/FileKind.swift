#if canImport(Glibc)
import Glibc
#endif

/// What stands at a path where a file should be, in the words of a message.
/// The store and a script are both read from a path anyone may put something
/// else at: a folder, or a FIFO, which an open waits on for a writer forever.
/// Each is refused (or reported) by what it is, named here once.
public enum FileKind {
    /// "a directory", "a FIFO (named pipe)", "a socket" or "a device" for what
    /// is at `path` (a symbolic link counts as what it points to); nil for a
    /// regular file, and when nothing is there or `stat` cannot tell.
    public static func notAFile(at path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFSOCK: return "a socket"
        case S_IFCHR, S_IFBLK: return "a device"
        default: return "not a regular file"
        }
    }

    /// True when a directory is at `path` (a symbolic link counts as what it
    /// points to): `FileManager.fileExists(atPath:isDirectory:)` without the
    /// `ObjCBool` that `FoundationEssentials` does not have.
    public static func isDirectory(at path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }
}
