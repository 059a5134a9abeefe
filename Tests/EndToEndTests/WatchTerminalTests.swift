import Foundation
import Testing

/// `cdscript watch` in a real terminal (tmux): the live view of stored countdowns.
@Suite("cdscript watch in a terminal", .enabled(if: Tmux.isAvailable, "needs tmux (scripts/setup installs it)"))
struct WatchTerminalTests {
    @Test("draws every stored countdown with its state, follows a change made by another command, escapes control characters in ids, and q quits (8: countdowns still ran)")
    func liveView() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-watch-\(UUID().uuidString)").path
        let seed = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-watch-\(UUID().uuidString).lua")
        defer {
            try? FileManager.default.removeItem(atPath: dir)
            try? FileManager.default.removeItem(at: seed)
        }
        try #"countdown.start{ id = "w", seconds = 50, persist = true }; countdown.start{ id = "p\27[31m", seconds = 70, persist = true }:pause(); os.exit(0)"#
            .write(to: seed, atomically: true, encoding: .utf8)
        #expect(try BinaryRunner.run(["--state-dir", dir, seed.path]).status == 0)
        let tmux = try Tmux(["watch", "--state-dir", dir], columns: 120, rows: 10)
        defer { tmux.stop() }
        try tmux.waitForText("cdscript watch: \(dir)/state.sqlite")
        try tmux.waitForText("w  running  00:00:4")
        try tmux.waitForText(#"p\e[31m  paused  00:01:"#)
        #expect(try BinaryRunner.run(["append", "w", "60", "--state-dir", dir]).status == 0)
        try tmux.waitForText("w  running  00:01:4", timeout: 2)
        // q while a countdown shown still runs: ended early, not a success.
        try tmux.send("q")
        try tmux.waitUntil("the end of the run") { tmux.hasEnded }
        #expect(tmux.exitStatus == 8)
    }

    @Test("a state folder removed while watch runs empties the view; the countdown then started in a new folder is shown, the old ones never again")
    func followsRemovedFolder() throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-watch-removed-\(UUID().uuidString)").path
        let dir = parent + "/state"
        let seed = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-watch-\(UUID().uuidString).lua")
        defer {
            try? FileManager.default.removeItem(atPath: parent)
            try? FileManager.default.removeItem(at: seed)
        }
        func store(_ id: String, seconds: Int) throws {
            try #"countdown.start{ id = "\#(id)", seconds = \#(seconds), persist = true }:pause(); os.exit(0)"#
                .write(to: seed, atomically: true, encoding: .utf8)
            #expect(try BinaryRunner.run(["--state-dir", dir, seed.path]).status == 0)
        }
        try store("old", seconds: 90)
        let tmux = try Tmux(["watch", "--state-dir", dir], columns: 100, rows: 10)
        defer { tmux.stop() }
        try tmux.waitForText("old  paused  00:01:")
        try FileManager.default.removeItem(atPath: dir)
        try tmux.waitUntil("the old countdown's row gone", timeout: 5) { try !tmux.screen().contains("old") }
        try store("fresh", seconds: 60)
        try tmux.waitForText("fresh  paused  00:0", timeout: 5)
        let screen = try tmux.screen()
        #expect(!screen.contains("old"), "\(screen)")
    }
}
