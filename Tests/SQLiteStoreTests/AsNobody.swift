import Foundation

/// Root reads any file, so what a user meets at a file they may not read is seen
/// by running the store's calls on a thread of their own whose file-system user
/// is nobody (65534): on Linux `setfsuid` is per thread, and a file-system user
/// other than 0 drops the thread's power to read past a file's mode. Not as
/// root, the calls run as the tests' own user.
enum AsNobody {
    static let uid: uid_t = 65534

    /// `setfsuid` and `setfsgid` from the C library (Glibc's module map leaves
    /// out <sys/fsuid.h>).
    private typealias SetID = @convention(c) (UInt32) -> Int32
    private static let setfsuid = unsafeBitCast(dlsym(UnsafeMutableRawPointer(bitPattern: 0), "setfsuid")!, to: SetID.self)
    private static let setfsgid = unsafeBitCast(dlsym(UnsafeMutableRawPointer(bitPattern: 0), "setfsgid")!, to: SetID.self)

    /// A new folder in /tmp that the calls' user owns (the run's own TMPDIR is
    /// private to the user running the tests: nobody could not reach into it).
    static func directory() -> String {
        let path = "/tmp/cdscript-store-nobody-\(UUID().uuidString)"
        mkdir(path, 0o700)
        if getuid() == 0 { chown(path, uid, uid) }
        return path
    }

    /// Runs `body` on a thread of its own as nobody (as the tests' own user when
    /// not root), and returns what it returned or threw.
    static func run<T>(_ body: @escaping () throws -> T) -> Result<T, any Error> {
        nonisolated(unsafe) var outcome: Result<T, any Error>?
        nonisolated(unsafe) let work = body
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let asRoot = getuid() == 0
            if asRoot { _ = setfsuid(uid); _ = setfsgid(uid) }
            outcome = Result { try work() }
            if asRoot { _ = setfsuid(0); _ = setfsgid(0) }
            done.signal()
        }
        thread.start()
        done.wait()
        return outcome!
    }
}
