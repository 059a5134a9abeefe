#if canImport(Glibc)
import Glibc
#endif
import CLinux

/// Learns through inotify that files in some folders were saved: written and
/// closed, or moved into place (how most editors save: a new file renamed over
/// the old one), or a symbolic link made in their place (`ln -sf`). Folders
/// rather than files, so that a save that replaces the file keeps being seen. Its descriptor goes into the run loop's one `poll`
/// (`MainLoop.watch`): nothing saved, no wake-up.
public final class FileChangeWatch {
    public let descriptor: Int32
    private var folders: [Int32: String] = [:]

    public init() throws(LoopError) {
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else {
            throw LoopError(message: "cannot watch files for changes: \(String(cString: strerror(errno)))")
        }
    }

    deinit { close(descriptor) }

    /// The folders watched now.
    public var watchedFolders: Set<String> { Set(folders.values) }

    /// Watches exactly `paths` (folders) from now on; ones that cannot be watched
    /// (missing, no permission) are left out.
    public func watch(folders paths: Set<String>) {
        let current = Set(folders.values)
        for (wd, path) in folders where !paths.contains(path) {
            inotify_rm_watch(descriptor, wd)
            folders[wd] = nil
        }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_ONLYDIR)
        for path in paths.subtracting(current) {
            let wd = inotify_add_watch(descriptor, path, mask)
            if wd >= 0 { folders[wd] = path }
        }
    }

    /// The paths saved since the last call (each once), read without blocking.
    public func drain() -> Set<String> {
        var saved: Set<String> = []
        let events = cdl_inotify_reader_open(descriptor)
        defer { cdl_inotify_reader_close(events) }
        var event = cdl_inotify_event()
        while cdl_inotify_next(events, &event) != 0 {
            guard let name = event.name.map({ String(cString: $0) }), let folder = folders[event.watch] else { continue }
            let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            // A link is whole once made (no write, no close follows); a new file is
            // still being written, and its close counts it.
            if event.mask & UInt32(IN_CREATE) != 0 && !Self.isSymbolicLink(path) { continue }
            saved.insert(path)
        }
        return saved
    }

    private static func isSymbolicLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }
}
