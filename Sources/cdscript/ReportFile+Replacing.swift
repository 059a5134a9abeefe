#if canImport(Glibc)
import Glibc
#endif
import SystemIdentity

extension ReportFile {
    /// Writes a file that the run owns (`--coverage`'s luacov.stats.out and
    /// lcov.info) whole or not at all: into a new temporary file in the same
    /// folder, flushed to disk, then renamed over `path`. A symbolic link placed
    /// at `path` is replaced, never followed (its target stays as it was), and a
    /// run killed while it writes leaves the old file, not a truncated one. The
    /// temporary file's name carries its writer (`.lcov.info.tmp-OWNER-RANDOM`,
    /// OWNER as `ProcessIdentity` names a process): what a run killed while it
    /// wrote left behind is removed by the next write of the same file.
    static func writeReplacing(_ text: String, to path: String) throws(WriteError) {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let base = slash.map { String(path[path.index(after: $0)...]) } ?? path
        removeStaleTemporaries(of: base, in: folder)
        var temporary = ""
        var fd: Int32 = -1
        for _ in 0..<100 {
            temporary = folder + temporaryPrefix(of: base) + ProcessIdentity.current + "-" + String(UInt32.random(in: 0...UInt32.max), radix: 36)
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else { throw WriteError(description: String(cString: strerror(errno))) }
        var failure = writeAll(text, to: fd)
        if failure == 0, fsync(fd) != 0 { failure = errno }
        if close(fd) != 0, failure == 0, errno != EINTR { failure = errno }
        if failure == 0, rename(temporary, path) != 0 { failure = errno }
        if failure != 0 {
            unlink(temporary)
            throw WriteError(description: String(cString: strerror(failure)))
        }
    }
}
