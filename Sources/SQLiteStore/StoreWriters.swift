#if canImport(Glibc)
import Glibc
#endif
import CountdownCore
import SystemIdentity
import Synchronization

/// The processes that have the store open for writing, so that the next one to
/// open it can tell whether one of them died with it open (`kill -9` in the
/// middle of a write, a power loss) and check the file once (see
/// `SQLiteCountdownStore.checkAfterCrash`).
///
/// One empty file per process in `state.sqlite-writers/`, named by its
/// `ProcessIdentity` (`bootid:pid:starttime`): made before the process's first
/// write (one file and one directory sync per process, nothing per change),
/// removed when it exits normally (`atexit`) or lets its last store go. A file
/// whose owner no longer runs (another boot id, or the pid gone or reused) was
/// left by a process that did not end normally.
///
/// Many processes at once: each writes only its own file; a stale one is taken
/// over by `rename(2)` to `<claimer>.checking`, which succeeds for exactly one
/// of the processes that find it, and that one checks. A checker that dies
/// while checking leaves its own stale claim, so the next open checks again.
struct StoreWriters {
    /// The folder's name inside the state folder.
    static let folderName = StateDirectory.fileName + "-writers"
    static let claimSuffix = ".checking"

    let folder: String

    init(directory: String) {
        folder = (directory.hasSuffix("/") ? directory : directory + "/") + Self.folderName
    }

    private var ownFile: String { folder + "/" + ProcessIdentity.current }

    // MARK: This process

    /// Registers this process (once per process and folder; later calls count
    /// users, for `release`). Best effort: a folder that cannot be written only
    /// costs the check after a crash, never the write itself.
    func register() {
        Self.registered.withLock { counts in
            if let count = counts[folder] {
                counts[folder] = count + 1
                return
            }
            counts[folder] = 1
            Self.removeAtExit()
            makeFolder()
            let fd = open(ownFile, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard fd >= 0 else { return }
            close(fd)
            // The file must outlive a power loss as surely as the writes that follow it.
            syncFolder(folder)
        }
    }

    /// One user of the registration is done; the last one removes it.
    func release() {
        Self.registered.withLock { counts in
            guard let count = counts[folder] else { return }
            if count > 1 {
                counts[folder] = count - 1
            } else {
                counts[folder] = nil
                unlink(ownFile)
            }
        }
    }

    /// Folders this process registered in, with the number of stores using each.
    private static let registered = Mutex<[String: Int]>([:])

    /// At a normal exit, whatever stores are still held: every registration goes.
    private static func removeAtExit() {
        _ = atExitInstalled
    }

    private static let atExitInstalled: Bool = {
        atexit {
            StoreWriters.registered.withLock { counts in
                for folder in counts.keys { unlink(folder + "/" + ProcessIdentity.current) }
                counts.removeAll()
            }
        }
        return true
    }()

    private func makeFolder() {
        if mkdir(folder, 0o700) == 0 {
            // Its entry in the state folder must outlive a power loss too.
            syncFolder(String(folder[..<(folder.lastIndex(of: "/") ?? folder.startIndex)]))
        }
    }

    private func syncFolder(_ path: String) {
        let fd = open(path.isEmpty ? "/" : path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    // MARK: Others

    /// The registrations whose owner no longer runs (claims of checkers that
    /// died included); none when the folder is missing. One `opendir` when no
    /// process registered; one `/proc` read per registration otherwise.
    func stale(isRunning: (String) -> Bool = ProcessIdentity.isRunning) -> [String] {
        guard let dir = opendir(folder) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            guard !name.hasPrefix("."), name != ProcessIdentity.current else { continue }
            if !isRunning(Self.owner(of: name)) { names.append(name) }
        }
        return names.sorted()
    }

    /// The process a registration or a claim belongs to.
    static func owner(of name: String) -> String {
        name.hasSuffix(claimSuffix) ? String(name.dropLast(claimSuffix.count)) : name
    }

    /// Takes over the stale registrations `names` for one check. Nil when every
    /// one was taken by another process first (or removed meanwhile).
    func claim(_ names: [String]) -> StaleClaim? {
        let claimFile = folder + "/" + ProcessIdentity.current + Self.claimSuffix
        var first: String?
        for name in names where rename(folder + "/" + name, claimFile) == 0 {
            if first == nil { first = name }
        }
        guard let first else { return nil }
        return StaleClaim(claimFile: claimFile, original: folder + "/" + first)
    }
}

/// Stale registrations taken over by this process for a check.
struct StaleClaim {
    let claimFile: String
    /// Where one of them was: a check that finds damage puts it back, so that
    /// every later open checks and refuses the file too.
    let original: String

    /// The file is whole: the registrations are gone.
    func checked() { unlink(claimFile) }

    /// The file is damaged: the stale registration stays.
    func damaged() { rename(claimFile, original) }

    /// The pid of the process that left `original`, for messages.
    var pid: String { ProcessIdentity.pid(in: StoreWriters.owner(of: String(original.split(separator: "/").last ?? ""))) }
}
