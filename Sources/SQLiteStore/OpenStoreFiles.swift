import Synchronization

/// The store files this process has an SQLite connection to, by device and inode.
///
/// SQLite's locks on a database file are POSIX advisory locks, which belong to
/// the process and inode: closing ANY descriptor of that file in the process drops
/// them all, under every connection. A second store handle's header check (an open,
/// a read, a close) then left the first one's connection unlocked, and another
/// process, seeing no reader, removed the WAL the first was still writing into:
/// `serve` (a handle for its end actions, one for its web pages) lost a pause made
/// through its API that way. A file this process already has open is a database
/// SQLite opened, so its header is not read again.
enum OpenStoreFiles {
    private static let counts = Mutex<[FileIdentity: Int]>([:])

    static func opened(_ file: FileIdentity) {
        counts.withLock { $0[file, default: 0] += 1 }
    }

    static func closed(_ file: FileIdentity) {
        counts.withLock { counts in
            guard let count = counts[file] else { return }
            counts[file] = count > 1 ? count - 1 : nil
        }
    }

    static func isOpen(_ file: FileIdentity) -> Bool {
        counts.withLock { $0[file] != nil }
    }
}
