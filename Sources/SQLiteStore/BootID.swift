import Foundation

/// The kernel's id of the current boot. Two readings agree exactly when no reboot
/// happened between them, which tells a store whether its boot-clock deadlines still hold.
public enum BootID {
    public static let path = "/proc/sys/kernel/random/boot_id"

    /// The current boot's id, or nil where the kernel does not provide one
    /// (then stored countdowns always resume by the wall clock).
    /// Read with `read(2)`, not FileManager: every `cdscript run` with a store
    /// reads it, and FileManager's first use cost about a quarter of a millisecond.
    public static func current(path: String = BootID.path) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        // A boot id is 36 characters and a newline.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { buffer -> String? in
            let count = read(fd, buffer.baseAddress, buffer.count)
            guard count > 0 else { return nil }
            // Without the ASCII white space around it.
            func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) }
            var start = 0, end = count
            while start < end, isSpace(buffer[start]) { start += 1 }
            while end > start, isSpace(buffer[end - 1]) { end -= 1 }
            guard start < end else { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<end]), as: UTF8.self)
        }
    }
}
