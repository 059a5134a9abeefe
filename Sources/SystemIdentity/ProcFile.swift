#if canImport(Glibc)
import Glibc
#endif

/// The one reader of the small files under /proc this module names things by.
/// `read(2)`, not FileManager: every `cdscript run` with a store reads the boot
/// id, and FileManager's first use cost about a quarter of a millisecond; a
/// process's stat is read at every open of a store that a process ended
/// without closing.
enum ProcFile {
    /// The whole file, or nil when it cannot be opened or is empty.
    static func contents(of path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[0..<count]
        }
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    }

    /// `text` without the ASCII white space around it (the newline the kernel ends a value with).
    static func trimmed(_ text: String) -> String {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) }
        let bytes = Array(text.utf8)
        var start = 0, end = bytes.count
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}
