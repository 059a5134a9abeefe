import Foundation
import Testing

extension StoreFaults {
    /// A FIFO at the store's path: an open waits for a writer forever, so every
    /// command that read the store hung. Each is refused at open, as a folder is.
    @Suite("A FIFO in place of the store file is refused, not waited on", .serialized)
    struct FifoStoreTests {
        @Test("list, status, check and append exit 6 at once on a FIFO at state.sqlite, naming it, and leave it a FIFO")
        func fifoRefused() throws {
            let dir = Scratch.directory("fifo-store")
            let path = dir + "/state.sqlite"
            #expect(mkfifo(path, 0o600) == 0, "mkfifo: \(String(cString: strerror(errno)))")
            for command in [["list"], ["status"], ["status", "tea"], ["check"], ["append", "tea", "10"]] {
                let started = Date()
                // A hang is killed after 5 s (and fails here) rather than holding the suite.
                let result = try LiveProcess.run(command + ["--state-dir", dir], timeout: 5)
                #expect(result.status == 6, "\(command): exit \(result.status) after \(Date().timeIntervalSince(started)) s: \(result.stderr)")
                #expect(result.stderr.contains(path) && result.stderr.contains("it is a FIFO (named pipe)"), "\(command): \(result.stderr)")
            }
            var info = stat()
            #expect(stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO, "the FIFO was left as it is")
        }
    }
}
