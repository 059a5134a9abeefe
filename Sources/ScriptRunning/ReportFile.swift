#if canImport(Glibc)
import Glibc
#endif
import LuaHost

/// Writes a report file (`--junit FILE`) in place, checking every step: a
/// report that cannot be written, whole, fails the run. In place rather than
/// through a temporary file and a rename, so that FILE may be a device or a
/// pipe (`/dev/stdout`, `/dev/full`) and is never replaced by a regular file.
enum ReportFile {
    struct WriteError: Error, Equatable, CustomStringConvertible {
        let description: String
    }

    static func write(_ text: String, to path: String) throws(WriteError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw WriteError(description: String(cString: strerror(errno))) }
        var failure = writeAll(text, to: fd)
        // close reports what a filesystem only sees at the end (NFS, quotas).
        if close(fd) != 0, failure == 0, errno != EINTR { failure = errno }
        if failure != 0 { throw WriteError(description: String(cString: strerror(failure))) }
    }

    /// Writes all of `text` to `fd`, going on after EINTR; the errno of the
    /// first failure, or 0.
    static func writeAll(_ text: String, to fd: Int32) -> Int32 { FileReplacement.writeAll(text, to: fd) }
}
