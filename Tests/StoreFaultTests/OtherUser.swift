import Foundation

/// Root reads any file, so a test of what an unreadable file does runs its
/// commands as another user when the tests run as root (as they do in CI):
/// `nobody` (65534), through `SpawnedRun.run(_:user:)`.
enum OtherUser {
    /// The user the commands run as: nobody under root, nil (the tests' own) otherwise.
    static var user: UInt32? { getuid() == 0 ? 65534 : nil }

    /// A new folder in /tmp that `user` owns. Not under the run's own TMPDIR:
    /// that is private to the user running the tests, and nobody could not
    /// reach a folder inside it (the test would then pass for the wrong reason).
    static func directory(_ name: String) -> String {
        let path = "/tmp/cdscript-\(name)-\(UUID().uuidString)"
        mkdir(path, 0o700)
        if let user { chown(path, user, user) }
        return path
    }

    /// Writes `text` to `path`, owned by `user`.
    static func write(_ text: String, to path: String) {
        try! text.write(toFile: path, atomically: false, encoding: .utf8)
        if let user { chown(path, user, user) }
    }

    static func remove(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }
}
