#if canImport(Glibc)
import Glibc
#endif
import CLinux
import CountdownCore

/// Learns of changes other processes commit to an SQLite countdown store without
/// polling: inotify reports writes to the store's directory (the database, its
/// `-wal`, and the creation of either), then `PRAGMA data_version` on the store's
/// own connection says whether another connection committed. This process's own
/// commits leave `data_version` as it was, so they are never reported. What
/// changed is read from the store's change log (`ChangeLog`): the ids past the
/// last entry seen, so a change costs in proportion to what changed.
///
/// A commit writes the WAL (an inotify event) before it is synced and published
/// in the shared-memory index (a memory write, no event); a reader woken by the
/// write may look too early. So cdscript's own writers also write one byte to
/// `state.sqlite-changed` once a commit is visible (`SQLiteCountdownStore`), and for
/// other writers (an older cdscript, the sqlite3 shell) each burst of events is
/// confirmed by re-checks on a one-shot timer from the run loop, 5 ms to 0.6 s
/// later. The timer is armed only by a change: an idle store costs no wake-up at all.
///
/// When the store's directory does not exist yet, the nearest existing ancestor is
/// watched for its creation.
public final class SQLiteChangeWatcher: CountdownChangeFeed {
    public let store: SQLiteCountdownStore
    private let inotifyFD: Int32
    private let recheck: WakeUpTimer
    private var watch: Int32 = -1
    private var watchingStoreDirectory = false
    /// While an ancestor is watched: the name whose creation in it matters.
    private var awaitedName: String?
    private var lastVersion: Int?
    private var pendingRechecks = 0
    private var knewFile = false
    /// True for a process that shows the store (`watch`, `watch --bar`): a store
    /// removed, or another file moved over it, is let go of and reported as a
    /// change of everything, so that it shows what the path holds now. False for a
    /// run that holds countdowns of its own: reading them back from a store that
    /// is gone would take them for cancelled elsewhere and end them (and opening
    /// the path would create the store again); such a run goes on as before.
    public var followsReplacedFile = false {
        // A view watches from the start, the store's creation included.
        didSet { if followsReplacedFile, watch < 0, !store.hasOpened { rewatch() } }
    }
    /// Re-checks after a burst of events, in nanoseconds after it.
    static let recheckDelays: [Int] = [5_000_000, 20_000_000, 60_000_000, 150_000_000, 400_000_000]

    /// Watches `store`, which should be the very store this process writes through
    /// (its connection's own commits are then not reported); `recheck` is the
    /// timer of the re-checks, from the run loop (`WakeUpTimerSource`).
    public init(store: SQLiteCountdownStore, recheck: WakeUpTimer) throws(StoreError) {
        self.store = store
        self.recheck = recheck
        inotifyFD = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard inotifyFD >= 0 else {
            throw StoreError(.unavailable, path: store.path, reason: "cannot watch it for changes: \(String(cString: strerror(errno)))")
        }
        knewFile = store.fileExists
        guard !store.hasOpened else {
            // Open already, and read from: the baseline first, then the watch.
            if knewFile {
                lastVersion = currentVersion()
                store.startFollowingChanges()
            }
            rewatch()
            // A commit from elsewhere between that read and the watch: looked at at once.
            if knewFile, currentVersion() != lastVersion {
                pendingRechecks = 1
                armRecheck()
            }
            return
        }
        // Opening the store costs a millisecond, and a script that keeps nothing
        // never needs it: the baseline waits for this process's first use, and so
        // does the watch. Until then this process holds nothing of the store's to
        // be told about, and a watch, once added, costs its process about 7 ms of
        // waiting when it closes (the kernel's grace period for the watch): a
        // one-line script took 9 ms from start to exit for 2 ms of CPU. A view
        // (`followsReplacedFile`) watches at once.
        store.didOpen = { [weak self] in self?.takeBaseline() }
    }

    /// `data_version` as this process first sees it, when it first opens the store.
    /// Opening created the store's `-wal` and `-shm` (and perhaps its directory):
    /// those events are this process's own, and are dropped, so that its own start
    /// wakes nobody (an event would arm 0.6 s of re-checks). A commit from
    /// elsewhere before the baseline is in what the operation that opened the
    /// store goes on to read.
    private func takeBaseline() {
        discardEvents()
        if !watchingStoreDirectory { rewatch() }
        knewFile = store.fileExists
        lastVersion = currentVersion()
        store.startFollowingChanges()
    }

    private func discardEvents() {
        withUnsafeTemporaryAllocation(byteCount: 4096, alignment: 8) { buffer in
            while read(inotifyFD, buffer.baseAddress, buffer.count) > 0 {}
        }
    }

    deinit {
        close(inotifyFD)
    }

    public var descriptors: [Int32] { [inotifyFD, recheck.descriptor] }

    public func drain() -> CountdownChanges {
        var relevant = false
        var signalled = false
        var moved = false
        let events = cdl_inotify_reader_open(inotifyFD)
        defer { cdl_inotify_reader_close(events) }
        var event = cdl_inotify_event()
        while cdl_inotify_next(events, &event) != 0 {
            // Events of a watch this process already removed, above all the
            // IN_IGNORED that removing it queues: they say nothing about the
            // folder (taking that IN_IGNORED for "the folder appeared" and
            // watching again, which queues another, spun a core).
            guard event.watch == watch else { continue }
            if event.mask & Self.watchedFolderGone != 0 {
                moved = true
                continue
            }
            let name = event.name.map { String(cString: $0) } ?? ""
            if watchingStoreDirectory {
                if name == SQLiteCountdownStore.changeSignalName {
                    signalled = true
                } else if name.hasPrefix(StateDirectory.fileName) {
                    relevant = true
                }
            } else if name == awaitedName {
                // Only the next component of the store's path matters; any
                // other file in an ancestor is a wake-up and nothing more.
                moved = true
            }
        }
        let timerFired = recheck.takeExpiry()
        // The folder went away (or another came): what was shown from a store
        // that is gone must go too, once, without re-checks.
        var lookOnce = false
        if moved {
            rewatch()
            // A store directory that appeared (or was replaced) may hold a store
            // already; one without a store needs a look only if one was known.
            if watchingStoreDirectory, store.fileExists { relevant = true } else { lookOnce = knewFile && followsReplacedFile }
        }
        if signalled {
            // A cdscript writer says its commit is visible: no re-check needed.
            pendingRechecks = 0
            disarmRecheck()
        } else if relevant {
            pendingRechecks = Self.recheckDelays.count
            armRecheck()
        } else if timerFired, pendingRechecks > 0 {
            pendingRechecks -= 1
            if pendingRechecks > 0 { armRecheck() }
        }
        guard relevant || signalled || timerFired || lookOnce else { return .none }
        return check()
    }

    /// Reads `data_version`; a new value (or a store that just appeared) is a change.
    /// A store that went away, or another file moved over it, is a change of
    /// everything: the file this process had open is let go, so that what is
    /// shown is what the path holds now (nothing, while there is no store).
    private func check() -> CountdownChanges {
        guard store.fileExists else {
            if followsReplacedFile, store.hasOpened { store.letGoOfReplacedFile() }
            defer { knewFile = false }
            return knewFile && followsReplacedFile ? .unknown : .none
        }
        if followsReplacedFile, store.fileWasReplaced {
            store.letGoOfReplacedFile()
            knewFile = false
        }
        let version = currentVersion()
        defer { lastVersion = version }
        if !knewFile {
            knewFile = true
            store.startFollowingChanges()
            return .unknown
        }
        guard version != nil else {
            // A change the log cannot name: what was read ahead may be stale too.
            store.dropReadAhead()
            return .unknown
        }
        return version == lastVersion ? .none : store.changesSinceLastLook()
    }

    private func currentVersion() -> Int? {
        // Opened here, by a change from elsewhere: that change must be reported,
        // not taken as the baseline.
        if !store.hasOpened { store.didOpen = nil }
        guard let db = try? store.open() else { return nil }
        return (try? db.value("PRAGMA data_version"))?.flatMap(\.integer).map(Int.init)
    }

    private func disarmRecheck() {
        recheck.disarm()
    }

    private func armRecheck() {
        let index = Self.recheckDelays.count - pendingRechecks
        recheck.arm(afterNanoseconds: Self.recheckDelays[max(0, min(index, Self.recheckDelays.count - 1))])
    }

    /// What says the watched folder itself went away: deleted, moved, or on a
    /// file system that was unmounted (the kernel then drops the watch: IN_IGNORED).
    static let watchedFolderGone = UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED | IN_UNMOUNT)

    /// Watches the store's directory, or while it does not exist (or is not a
    /// folder), its nearest existing ancestor for the creation of the next
    /// component of the path (`awaitedName`).
    private func rewatch() {
        if watch >= 0 { inotify_rm_watch(inotifyFD, watch) }
        watch = -1
        // The awaited component may appear between the failed watch on it and the
        // watch on its parent; it is then looked for again. A path that keeps
        // changing under this loop leaves the nearest ancestor watched.
        for _ in 0..<8 {
            // No IN_CLOSE_WRITE: SQLite opens `-wal` and `-shm` for writing even in a
            // read-only connection, so every reader (`cdscript status` each second in a
            // bar) closed them with that event and woke every watcher six times (the
            // event and its re-checks) for a read that changed nothing. A commit writes
            // (IN_MODIFY), a new or replaced store is created or moved in.
            let storeMask = UInt32(IN_MODIFY | IN_CREATE | IN_MOVED_TO | IN_DELETE) | Self.watchedFolderGone | UInt32(IN_ONLYDIR)
            watch = inotify_add_watch(inotifyFD, store.directory, storeMask)
            if watch >= 0 {
                watchingStoreDirectory = true
                awaitedName = nil
                return
            }
            watchingStoreDirectory = false
            var child = store.directory.hasPrefix("/") ? store.directory : "./" + store.directory
            var path = Self.parent(of: child)
            let ancestorMask = UInt32(IN_CREATE | IN_MOVED_TO | IN_ONLYDIR) | Self.watchedFolderGone
            while true {
                watch = inotify_add_watch(inotifyFD, path, ancestorMask)
                if watch >= 0 { break }
                guard path != "/", path != "." else {
                    // Nothing on the path can be watched (no permission): no events, no wake-ups.
                    awaitedName = nil
                    return
                }
                child = path
                path = Self.parent(of: path)
            }
            awaitedName = Self.lastComponent(of: child)
            guard Self.isDirectory(child) else { return }
            inotify_rm_watch(inotifyFD, watch)
            watch = -1
        }
        // Still racing: the parent of the last component seen is watched.
        var path = store.directory.hasPrefix("/") ? store.directory : "./" + store.directory
        while watch < 0, path != "/", path != "." {
            awaitedName = Self.lastComponent(of: path)
            path = Self.parent(of: path)
            watch = inotify_add_watch(inotifyFD, path, UInt32(IN_CREATE | IN_MOVED_TO | IN_ONLYDIR) | Self.watchedFolderGone)
        }
    }

    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    static func lastComponent(of path: String) -> String {
        var trimmed = path
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return trimmed }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    static func parent(of path: String) -> String {
        var trimmed = path
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }
}
