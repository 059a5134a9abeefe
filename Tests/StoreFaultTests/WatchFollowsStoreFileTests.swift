import Foundation
import GRDB
import Testing

extension StoreFaults {
    /// Issue 50: a watcher shows the store its path names now. A state folder
    /// removed, or another store moved over the file, while `watch` runs: what the
    /// old file held goes, and what is stored afterwards comes, as `status` shows it.
    @Suite("watch and watch --bar follow the store file their path names", .serialized)
    struct WatchFollowsStoreFileTests {
        /// Stores the paused countdown `id` (`seconds` left) in `dir` through a run.
        static func storePaused(_ id: String, seconds: Int, in dir: String) throws {
            let seed = try LiveProcess.run(["--state-dir", dir, Scratch.script(#"countdown.start{ id = "\#(id)", seconds = \#(seconds), persist = true }:pause(); os.exit(0)"#)])
            #expect(seed.status == 0, "\(seed.stderr)")
        }

        @Test("watch --bar shows an empty line once its state folder is removed, then the countdown started in a new one, never the old one again")
        func barAfterFolderRemoved() throws {
            let parent = Scratch.directory("bar-folder-removed")
            defer { try? FileManager.default.removeItem(atPath: parent) }
            let dir = parent + "/state"
            try Self.storePaused("held", seconds: 90, in: dir)
            let bar = try LiveProcess(["watch", "--bar", "polybar", "--state-dir", dir])
            defer { bar.signal(SIGKILL); bar.wait() }
            #expect(bar.waitForLine { $0 == "⏸ held 1:30" } != nil, "\(bar.texts) \(bar.stderr)")
            try FileManager.default.removeItem(atPath: dir)
            #expect(Live.next(bar, after: 1, timeout: 5) { $0.isEmpty } != nil, "nothing shown while there is no store: \(bar.texts)")
            let emptied = bar.lines.count
            try Self.storePaused("fresh", seconds: 60, in: dir)
            #expect(Live.next(bar, after: emptied, timeout: 5) { $0 == "⏸ fresh 1:00" } != nil, "\(bar.texts) \(bar.stderr)")
            #expect(try LiveProcess.run(["status", "--state-dir", dir]).lines == ["⏸ fresh 1:00"])
            #expect(!bar.texts.dropFirst(emptied).contains { $0.contains("held") }, "\(bar.texts)")
            #expect(bar.stderr.isEmpty, "\(bar.stderr)")
        }

        @Test("watch --bar follows a store moved over the file it had open (a backup put back), as status does")
        func barAfterStoreMovedOver() throws {
            let dir = Scratch.directory("bar-moved-over")
            defer { try? FileManager.default.removeItem(atPath: dir) }
            try Self.storePaused("held", seconds: 90, in: dir)
            let other = Scratch.directory("bar-moved-over-new")
            defer { try? FileManager.default.removeItem(atPath: other) }
            try Self.storePaused("fresh", seconds: 60, in: other)
            // A copy that is whole in one file, as `sqlite3 .backup` writes one: its
            // WAL folded in, and no WAL mode (cdscript switches it back on opening).
            let copy = try DatabaseQueue(path: other + "/state.sqlite")
            try copy.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
                _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = DELETE")
            }
            try copy.close()
            let bar = try LiveProcess(["watch", "--bar", "polybar", "--state-dir", dir])
            defer { bar.signal(SIGKILL); bar.wait() }
            #expect(bar.waitForLine { $0 == "⏸ held 1:30" } != nil, "\(bar.texts) \(bar.stderr)")
            let before = bar.lines.count
            // As SQLite requires of a file put back: the old store's WAL and index go
            // first (any process that opened the new file beside them would read them).
            for suffix in ["-wal", "-shm"] { try FileManager.default.removeItem(atPath: dir + "/state.sqlite" + suffix) }
            #expect(rename(other + "/state.sqlite", dir + "/state.sqlite") == 0)
            #expect(Live.next(bar, after: before, timeout: 5) { $0 == "⏸ fresh 1:00" } != nil, "\(bar.texts) \(bar.stderr)")
            #expect(try LiveProcess.run(["status", "--state-dir", dir]).lines == ["⏸ fresh 1:00"])
            #expect(bar.stderr.isEmpty, "\(bar.stderr)")
        }

        @Test("watch (plain lines) says a countdown went when its state folder is removed, and shows the one started in a new folder")
        func plainWatchAfterFolderRemoved() throws {
            let parent = Scratch.directory("watch-folder-removed")
            defer { try? FileManager.default.removeItem(atPath: parent) }
            let dir = parent + "/state"
            try Self.storePaused("held", seconds: 90, in: dir)
            let watch = try LiveProcess(["watch", "--state-dir", dir])
            defer { watch.signal(SIGKILL); watch.wait() }
            #expect(watch.waitForLine { $0.hasPrefix("held: paused  00:01:") } != nil, "\(watch.texts) \(watch.stderr)")
            let count = watch.lines.count
            try FileManager.default.removeItem(atPath: dir)
            #expect(Live.next(watch, after: count, timeout: 5) { $0 == "held: removed" } != nil, "\(watch.texts)")
            let removed = watch.lines.count
            try Self.storePaused("fresh", seconds: 60, in: dir)
            #expect(Live.next(watch, after: removed, timeout: 5) { $0.hasPrefix("fresh: paused  00:0") } != nil, "\(watch.texts) \(watch.stderr)")
            #expect(!watch.texts.dropFirst(removed).contains { $0.hasPrefix("held") }, "\(watch.texts)")
        }
    }
}

extension StoreFaults.WatchFollowsStoreFileTests {
    @Test("a timer with an id runs on to its end when its state folder is removed meanwhile (only watchers follow the path), and creates no store again")
    func timerRunsOnAfterFolderRemoved() throws {
        let parent = Scratch.directory("timer-folder-removed")
        defer { try? FileManager.default.removeItem(atPath: parent) }
        let dir = parent + "/state"
        let timer = try LiveProcess(["timer", "3", "--id", "t", "--state-dir", dir])
        defer { timer.signal(SIGKILL); timer.wait() }
        #expect(timer.waitForLine { $0.contains("2") } != nil, "\(timer.texts) \(timer.stderr)")
        try FileManager.default.removeItem(atPath: dir)
        #expect(timer.wait(timeout: 10) == 0, "\(timer.stderr)")
        #expect(timer.texts.contains { $0.contains("Time's up") }, "it ended at its deadline, not cancelled: \(timer.texts)")
        #expect(Date().timeIntervalSince(timer.started) > 2.5, "\(timer.texts)")
        #expect(!FileManager.default.fileExists(atPath: dir))
    }
}
