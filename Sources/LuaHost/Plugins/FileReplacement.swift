#if canImport(Glibc)
import Glibc
#endif

/// Replaces a file whole or not at all: the text goes into a new temporary file
/// in the same folder (created exclusively, never through a link), then that is
/// renamed over `path`. A reader (OBS's text source polling a file, a status
/// bar) sees the old text or the new, never half of one; a symbolic link placed
/// at `path` is replaced, its target left as it was.
public enum FileReplacement {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// `durable`: flushed to disk before the rename, for a file that must
    /// survive a crash of the machine (a report); a text shown live need not be.
    /// `tag` goes into the temporary file's name (`.BASE.tmp-TAGRANDOM`): a
    /// writer's identity, by which what a killed writer left can be told apart.
    public static func write(_ text: String, to path: String, durable: Bool, tag: String = "") throws(Failure) {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let base = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard !base.isEmpty else { throw Failure(description: "\(path) names a folder, not a file") }
        var temporary = ""
        var fd: Int32 = -1
        for _ in 0..<100 {
            temporary = folder + temporaryPrefix(of: base) + tag + String(UInt32.random(in: 0...UInt32.max), radix: 36)
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else { throw Failure(description: String(cString: strerror(errno))) }
        var failure = writeAll(text, to: fd)
        if failure == 0, durable, fsync(fd) != 0 { failure = errno }
        if close(fd) != 0, failure == 0, errno != EINTR { failure = errno }
        if failure == 0, rename(temporary, path) != 0 { failure = errno }
        if failure != 0 {
            unlink(temporary)
            throw Failure(description: String(cString: strerror(failure)))
        }
    }

    /// What every temporary file of `base` is named with first.
    public static func temporaryPrefix(of base: String) -> String { "." + base + ".tmp-" }

    /// Writes all of `text` to `fd`, going on after EINTR; the errno of the
    /// first failure, or 0.
    public static func writeAll(_ text: String, to fd: Int32) -> Int32 {
        var text = text
        return text.withUTF8 { bytes -> Int32 in
            var offset = 0
            while offset < bytes.count {
                let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += n
            }
            return 0
        }
    }
}
