#if canImport(Glibc)
import Glibc
#endif

/// Which file a path named when it was looked at: two names of one file have the
/// same device and inode, and a file created (or moved) in its place has others.
struct FileIdentity: Hashable {
    var device: UInt64
    var inode: UInt64

    /// The file at `path` now; nil when there is none (or it cannot be looked at).
    init?(of path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}

/// A store file replaced or removed under a process that has it open: its
/// connection still reads the old file (an open file lives on under no name), so a
/// watcher would go on showing what the old file held while every new command
/// reads the new one. A process that follows the store asks whether the file at
/// the path is still the one it opened, and lets go of it when it is not.
extension SQLiteCountdownStore {
    /// True when this store opened a file (or tried to) and the path now names
    /// another file, or none: the state folder was removed, or a store was moved
    /// over this one.
    public var fileWasReplaced: Bool {
        guard opened != nil else { return false }
        return FileIdentity(of: path) != openedFile
    }

    /// Closes the connection to a file that is no longer at the path and forgets
    /// everything read from it; the next operation opens what the path names then,
    /// as the first one did (and creates nothing unless it writes). SQLite sees
    /// that the file it closes was moved or removed, and then neither folds the WAL
    /// into it nor removes anything by name, so nothing of the new store is touched.
    public func letGoOfReplacedFile() {
        if case .success(let db)? = opened { db.close() }
        if case .success? = opened, let openedFile { OpenStoreFiles.closed(openedFile) }
        opened = nil
        openedFile = nil
        readAheadCopy = nil
        loadsSinceLook = 0
        changeLogPosition = nil
        if isRegisteredWriter {
            // Registered again, in the folder there is now, before this process's next write.
            writers.release()
            isRegisteredWriter = false
        }
    }
}
