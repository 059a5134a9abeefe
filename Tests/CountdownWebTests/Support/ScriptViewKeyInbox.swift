#if canImport(Glibc)
import Glibc
#endif
import ScriptViewModel

/// For the tests: key presses from the page on their way to the test's thread,
/// as they once went to the run loop in process (the run now reads them from
/// cdscript-serve's output, KeyLines): a pipe. The server's thread writes a key as one line (`post`, one `write`
/// of a few bytes, atomic under PIPE_BUF); the run loop watches `readFD` as it
/// watches the terminal's input, and reads the keys on its own thread
/// (`drain`), where they are pressed as typed keys are. No lock, no shared
/// memory: the kernel's buffer is the queue, and a full one refuses the click
/// instead of blocking the server.
public final class ScriptViewKeyInbox: Sendable {
    /// The end the run loop watches.
    public let readFD: Int32
    private let writeFD: Int32

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public init() throws(Failure) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            throw Failure(description: "cannot make a pipe for the page's key presses: \(String(cString: strerror(errno)))")
        }
        // Neither end blocks (a full pipe refuses a click; an empty one ends a drain), nor outlives an exec.
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        readFD = fds[0]
        writeFD = fds[1]
    }

    deinit {
        close(readFD)
        close(writeFD)
    }

    /// Queues `key` (a canonical key name: printable, no newline); false when
    /// the queue is full or the key cannot be a key. Safe from any thread.
    public func post(_ key: String) -> Bool {
        guard ScriptViewKey.canBeKey(key) else { return false }
        let line = Array((key + "\n").utf8)
        while true {
            let written = line.withUnsafeBytes { write(writeFD, $0.baseAddress, $0.count) }
            if written == line.count { return true }
            if written < 0 && errno == EINTR { continue }
            return false
        }
    }

    /// The keys queued so far, in order. On the run loop's thread.
    public func drain() -> [String] {
        var keys: [String] = []
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(readFD, &buffer, buffer.count)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            pending += buffer[..<n]
        }
        // Lines are written whole, so the bytes read end with a newline.
        for line in pending.split(separator: 0x0A) where !line.isEmpty {
            keys.append(String(decoding: line, as: UTF8.self))
        }
        return keys
    }
}
