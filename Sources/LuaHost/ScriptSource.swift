import CountdownCore
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// A script's text, read as `lua5.4` reads one: from a regular file, a pipe, a
/// FIFO or a terminal alike (`cdscript <(printf ...)`, `cdscript /dev/stdin`),
/// and from standard input when the path is `-`.
enum ScriptSource {
    /// The name `lua5.4` gives standard input's chunk.
    static let standardInputChunkName = "=stdin"

    /// The bytes at `path` (`-`: standard input), or why they cannot be read.
    /// With `regularFileOnly`, a folder, a FIFO, a socket or a device is refused
    /// by what it is (FileKind) before it is opened: opening a FIFO waits for a
    /// writer.
    static func read(_ path: String, regularFileOnly: Bool = false) -> Result<Data, ReadFailure> {
        if regularFileOnly, path != "-", let kind = FileKind.notAFile(at: path) {
            return .failure(ReadFailure(errno: EINVAL, kind: kind))
        }
        let fd = path == "-" ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(ReadFailure(errno: errno)) }
        defer { if fd != STDIN_FILENO { close(fd) } }
        var info = stat()
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR { return .failure(ReadFailure(errno: EISDIR)) }
        var data = Data()
        // A regular file's size is known: a buffer of that size and one byte more
        // (to see its end in the next read) touches no more fresh pages than the
        // script has. 64 KiB zeroed for a one-line script was 16 page faults of
        // every run (docs/performance.md, "Linked static").
        let isFile = (info.st_mode & S_IFMT) == S_IFREG
        var buffer = [UInt8](repeating: 0, count: isFile ? max(1, min(Int(info.st_size) + 1, 65536)) : 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n == 0 { return .success(data) }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(ReadFailure(errno: errno))
            }
            data.append(buffer, count: n)
        }
    }

    struct ReadFailure: Error, CustomStringConvertible {
        let errno: Int32
        /// What stands at the path instead of a file, when that is the reason.
        var kind: String?
        init(errno: Int32, kind: String? = nil) {
            self.errno = errno
            self.kind = kind
        }
        var description: String {
            if let kind { return "it is \(kind)" }
            switch errno {
            case ENOENT: return "no such file"
            case EISDIR: return "it is a directory"
            case EACCES, EPERM: return "permission denied"
            default: return String(cString: strerror(errno))
            }
        }
    }
}
