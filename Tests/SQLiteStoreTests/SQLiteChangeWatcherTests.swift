import CountdownCore
import EventLoop
import SQLiteStore
import Foundation
import GRDB
import Testing

/// Waits on the watcher's descriptors (as the run loop does) for up to `timeout`
/// seconds and returns everything it reported.
private func changes(_ watcher: SQLiteChangeWatcher, within timeout: Double = 1) -> CountdownChanges {
    var seen = CountdownChanges.none
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        var fds = watcher.descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let ready = poll(&fds, nfds_t(fds.count), Int32(max(1, deadline.timeIntervalSinceNow * 1000)))
        if ready > 0 { seen = seen.merged(with: watcher.drain()) }
    }
    return seen
}

/// The inotify watches the watcher holds, as the kernel lists them (one
/// `inotify wd:` line each in the descriptor's /proc fdinfo).
private func inotifyWatches(_ watcher: SQLiteChangeWatcher) -> Int {
    guard let fd = watcher.descriptors.first,
          let info = try? String(contentsOfFile: "/proc/self/fdinfo/\(fd)", encoding: .utf8) else { return -1 }
    return info.split(separator: "\n").filter { $0.hasPrefix("inotify wd:") }.count
}

/// How many times the watcher's descriptors woke a poll within `timeout` seconds.
private func wakes(_ watcher: SQLiteChangeWatcher, within timeout: Double) -> Int {
    var wakes = 0
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        var fds = watcher.descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        if poll(&fds, nfds_t(fds.count), Int32(max(1, deadline.timeIntervalSinceNow * 1000))) > 0 {
            wakes += 1
            _ = watcher.drain()
        }
    }
    return wakes
}

@Suite("The SQLite change watcher: inotify and data_version, no polling")
struct SQLiteChangeWatcherTests {
    @Test("another connection's commit is reported; this store's own commits are not")
    func othersNotOwn() throws {
        let dir = temporaryDirectory()
        let mine = SQLiteCountdownStore(directory: dir)
        try mine.save(record("a"))
        let watcher = try SQLiteChangeWatcher(store: mine, recheck: try LoopTimer())
        try mine.save(record("b"))
        #expect(changes(watcher, within: 0.8) == .none, "its own write")
        let other = SQLiteCountdownStore(directory: dir)
        try other.modify(id: "a") { $0?.total += 1 }
        #expect(changes(watcher) == .ids(["a"]), "only what changed, not this store's own write")
        #expect(changes(watcher, within: 0.8) == .none, "nothing more after the change was seen")
    }

    /// A run whose script keeps nothing never opens the store (a millisecond of
    /// start-up): the watcher waits for this process's first use to take its
    /// baseline. That use creates the store's `-wal` and `-shm`, whose events
    /// would wake the watcher and arm 0.6 s of re-checks in an idle run.
    @Test("a watcher does not open the store; this process's first use later wakes nobody and its own commits are not reported")
    func baselineAtFirstUse() throws {
        let dir = temporaryDirectory()
        do {
            // Written and closed by an earlier run: its last connection removed the `-wal`.
            let earlier = SQLiteCountdownStore(directory: dir)
            try earlier.save(record("a"))
        }
        #expect(!FileManager.default.fileExists(atPath: dir + "/state.sqlite-wal"))
        let mine = SQLiteCountdownStore(directory: dir)
        let watcher = try SQLiteChangeWatcher(store: mine, recheck: try LoopTimer())
        #expect(!mine.hasOpened)
        #expect(!FileManager.default.fileExists(atPath: dir + "/state.sqlite-wal"), "the watcher opened the store")
        #expect(try mine.load(id: "a") != nil)
        #expect(FileManager.default.fileExists(atPath: dir + "/state.sqlite-wal"))
        #expect(wakes(watcher, within: 0.7) == 0, "opening the store woke the watcher")
        try mine.save(record("b"))
        #expect(changes(watcher, within: 0.8) == .none, "its own open and write")
        let other = SQLiteCountdownStore(directory: dir)
        try other.modify(id: "a") { $0?.total += 1 }
        #expect(changes(watcher) == .ids(["a"]))
    }

    @Test("for a process that shows the store, a commit from elsewhere before this process ever opened the store is reported")
    func changeBeforeFirstUse() throws {
        let dir = temporaryDirectory()
        let other = SQLiteCountdownStore(directory: dir)
        try other.save(record("a"))
        let mine = SQLiteCountdownStore(directory: dir)
        let watcher = try SQLiteChangeWatcher(store: mine, recheck: try LoopTimer())
        watcher.followsReplacedFile = true
        try other.modify(id: "a") { $0?.total += 1 }
        #expect(changes(watcher) == .unknown, "nothing was seen before it: what changed since cannot be told")
        #expect(mine.hasOpened, "opened by the watcher, to read data_version")
        #expect(changes(watcher, within: 0.8) == .none, "its own open is not a change")
    }

    /// A run holds nothing of the store's until it first uses it (any use opens the
    /// store, and takes the baseline): so it adds no inotify watch before then. A
    /// watch, once added, costs its process about 7 ms of waiting when it is closed
    /// (the kernel's grace period), which every one-line script paid at its exit.
    @Test("a run's watcher adds its watch at this process's first use of the store, not before, and then reports what others change")
    func watchAtFirstUse() throws {
        let dir = temporaryDirectory()
        let other = SQLiteCountdownStore(directory: dir)
        try other.save(record("a"))
        let mine = SQLiteCountdownStore(directory: dir)
        let watcher = try SQLiteChangeWatcher(store: mine, recheck: try LoopTimer())
        #expect(inotifyWatches(watcher) == 0)
        try other.modify(id: "a") { $0?.total += 1 }
        #expect(changes(watcher, within: 0.3) == .none, "nothing of the store's is held yet")
        #expect(try mine.load(id: "a")?.total == other.load(id: "a")?.total, "the first use reads what others changed")
        #expect(inotifyWatches(watcher) == 1)
        try other.modify(id: "a") { $0?.total += 1 }
        #expect(changes(watcher) == .ids(["a"]))
    }

    @Test("for a process that shows the store, a store whose directory does not exist yet is reported when another process creates it")
    func directoryCreatedLater() throws {
        let root = temporaryDirectory()
        let mine = SQLiteCountdownStore(directory: root + "/x/y")
        let watcher = try SQLiteChangeWatcher(store: mine, recheck: try LoopTimer())
        watcher.followsReplacedFile = true
        #expect(!FileManager.default.fileExists(atPath: root))
        let other = SQLiteCountdownStore(directory: root + "/x/y")
        try other.save(record("late"))
        #expect(changes(watcher, within: 1.5) == .unknown)
        #expect(try mine.load(id: "late") != nil)
    }

    @Test("for a process that shows the store, a store folder moved away and replaced by a new one is followed: the new store's commits are reported")
    func folderReplaced() throws {
        let root = temporaryDirectory()
        let dir = root + "/state"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let mine = SQLiteCountdownStore(directory: dir)
        let watcher = try SQLiteChangeWatcher(store: mine, recheck: try LoopTimer())
        watcher.followsReplacedFile = true
        #expect(rename(dir, root + "/state.old") == 0)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
        #expect(changes(watcher, within: 0.3) == .none, "an empty folder is no change")
        let other = SQLiteCountdownStore(directory: dir)
        try other.save(record("new"))
        #expect(changes(watcher) == .unknown)
    }

    @Test("for a process that shows the store, a store folder removed under it is a change once; the store then reads the one made in its place, not the old file")
    func openFolderRemoved() throws {
        let root = temporaryDirectory()
        let dir = root + "/state"
        let mine = SQLiteCountdownStore(directory: dir)
        try mine.save(record("old"))
        let watcher = try SQLiteChangeWatcher(store: mine, recheck: try LoopTimer())
        watcher.followsReplacedFile = true
        try FileManager.default.removeItem(atPath: dir)
        #expect(changes(watcher, within: 0.5) == .unknown, "what was shown from the removed store goes")
        #expect(!mine.fileWasReplaced, "the removed file was let go of")
        #expect(!FileManager.default.fileExists(atPath: dir), "letting go created nothing")
        let other = SQLiteCountdownStore(directory: dir)
        try other.save(record("new"))
        #expect(changes(watcher) == .unknown)
        let ids = try mine.list().map(\.id)
        #expect(ids == ["new"])
    }

    @Test("for a process that shows the store, a store moved over the file it had open is a change, and the store then reads the file moved in")
    func storeMovedOver() throws {
        let dir = temporaryDirectory()
        let mine = SQLiteCountdownStore(directory: dir)
        try mine.save(record("old"))
        let watcher = try SQLiteChangeWatcher(store: mine, recheck: try LoopTimer())
        watcher.followsReplacedFile = true
        let elsewhere = temporaryDirectory()
        try SQLiteCountdownStore(directory: elsewhere).save(record("new"))
        // Whole in its one file (the WAL folded in), as a backup is.
        let copy = try DatabaseQueue(path: elsewhere + "/state.sqlite")
        try copy.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        try copy.close()
        // As SQLite requires of a file put back: the old store's WAL and index go
        // first (any process that opened the new file beside them would read them).
        for suffix in ["-wal", "-shm"] { try FileManager.default.removeItem(atPath: dir + "/state.sqlite" + suffix) }
        #expect(rename(elsewhere + "/state.sqlite", dir + "/state.sqlite") == 0)
        #expect(changes(watcher) == .unknown)
        let ids = try mine.list().map(\.id)
        #expect(ids == ["new"])
        #expect(!mine.fileWasReplaced)
    }

    @Test("for a run that holds countdowns of its own (the default), a store folder removed is no change, and nothing is created again")
    func runIgnoresRemovedFolder() throws {
        let root = temporaryDirectory()
        let dir = root + "/state"
        let mine = SQLiteCountdownStore(directory: dir)
        try mine.save(record("mine"))
        let watcher = try SQLiteChangeWatcher(store: mine, recheck: try LoopTimer())
        try FileManager.default.removeItem(atPath: dir)
        #expect(changes(watcher, within: 0.8) == .none, "its countdowns are not taken for cancelled")
        #expect(!FileManager.default.fileExists(atPath: dir))
    }

    @Test("for a process that shows the store, a file where the store folder should be is not watched as the folder; the folder that replaces it is")
    func fileInPlaceOfFolder() throws {
        let root = temporaryDirectory()
        let dir = root + "/state"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try "not a folder".write(toFile: dir, atomically: false, encoding: .utf8)
        let mine = SQLiteCountdownStore(directory: dir)
        let watcher = try SQLiteChangeWatcher(store: mine, recheck: try LoopTimer())
        watcher.followsReplacedFile = true
        try "still not".write(toFile: dir, atomically: false, encoding: .utf8)
        #expect(wakes(watcher, within: 0.3) == 0, "writes to the file woke the watcher")
        try FileManager.default.removeItem(atPath: dir)
        let other = SQLiteCountdownStore(directory: dir)
        try other.save(record("new"))
        #expect(changes(watcher) == .unknown)
    }

    @Test("a commit made by another tool (no signal file) is still seen, through the re-checks")
    func foreignWriter() throws {
        let dir = temporaryDirectory()
        let mine = SQLiteCountdownStore(directory: dir)
        try mine.save(record("a"))
        let watcher = try SQLiteChangeWatcher(store: mine, recheck: try LoopTimer())
        try FileManager.default.removeItem(atPath: dir + "/" + SQLiteCountdownStore.changeSignalName)
        let sqlite = Process()
        sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        sqlite.arguments = [dir + "/state.sqlite", "UPDATE countdown SET total = total + 1 WHERE id = 'a'"]
        try sqlite.run()
        sqlite.waitUntilExit()
        #expect(sqlite.terminationStatus == 0)
        #expect(!FileManager.default.fileExists(atPath: dir + "/" + SQLiteCountdownStore.changeSignalName))
        #expect(changes(watcher) == .ids(["a"]), "the change log's triggers log every writer")
    }
}
