import Foundation
import Testing

/// `cdscript watch` over more countdowns than the terminal has rows: a page at a
/// time, moved by keys; plain output prints what changed, not every tick.
@Suite("cdscript watch pages a large store and prints only what changed", .serialized)
struct WatchPagingTests {
    static let count = 300

    /// A store of `count` countdowns, `cd-000` to `cd-299`, running for an hour.
    static func store() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-watch-paging-\(UUID().uuidString)").path
        let seed = try BinaryRunner.script("""
            for i = 0, \(count - 1) do countdown.start{ id = string.format("cd-%03d", i), seconds = 3600, persist = true } end
            os.exit(0)
            """)
        #expect(try BinaryRunner.run(["--state-dir", dir, seed], timeout: 120).status == 0)
        return dir
    }

    @Test("in 80x24, 22 rows under the header and a status line; n, G, g and the arrows move the page",
          .enabled(if: Tmux.isAvailable, "needs tmux (scripts/setup installs it)"))
    func pages() throws {
        let dir = try Self.store()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let tmux = try Tmux(["watch", "--state-dir", dir], columns: 80, rows: 24)
        defer { tmux.stop() }
        try tmux.waitForText("1-22 of \(Self.count)", timeout: 30)
        try tmux.waitForText("cd-000  running  00:59:")
        try tmux.waitForText("cd-021  running")
        #expect(try !tmux.screen().contains("cd-022"))
        try tmux.send("n")
        try tmux.waitForText("23-44 of \(Self.count)")
        try tmux.waitForText("cd-022  running")
        try tmux.waitForText("cd-043  running")
        #expect(try !tmux.screen().contains("cd-021"))
        try tmux.send("G")
        try tmux.waitForText("279-300 of \(Self.count)")
        try tmux.waitForText("cd-299  running")
        try tmux.send("Up")
        try tmux.waitForText("278-299 of \(Self.count)")
        try tmux.waitForText("cd-277  running")
        try tmux.send("g")
        try tmux.waitForText("1-22 of \(Self.count)")
        // A change to a countdown on the page shows there at once.
        #expect(try BinaryRunner.run(["pause", "cd-003", "--state-dir", dir]).status == 0)
        try tmux.waitForText("cd-003  paused  00:59:")
        // A countdown off the page ticks nowhere; on the page it shows as it is now.
        #expect(try BinaryRunner.run(["append", "cd-290", "3600", "--state-dir", dir]).status == 0)
        try tmux.send("G")
        try tmux.waitForText("cd-290  running  01:59:")
        // The terminal grows: more rows.
        try tmux.resize(columns: 80, rows: 34)
        try tmux.waitForText("269-300 of \(Self.count)")
        try tmux.send("q")
        try tmux.waitUntil("the end of the run") { tmux.hasEnded }
        #expect(tmux.exitStatus == 8)
    }

    @Test("--match shows only the ids a shell pattern matches")
    func match() throws {
        let dir = try Self.store()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let watch = try BinaryRunner.run(["watch", "--plain", "--match", "cd-1[0-4]?", "--state-dir", dir], signal: SIGTERM, signalAfter: 3)
        let ids = Set(watch.stdout.split(separator: "\n").compactMap { $0.split(separator: ":").first.map(String.init) })
        #expect(ids == Set((100..<150).map { String(format: "cd-%03d", $0) }), "\(watch.stdout.prefix(500)) \(watch.stderr)")
    }

    @Test("--plain prints one line per countdown, then only changes, not a line per countdown per second")
    func plainPrintsChanges() throws {
        let dir = try Self.store()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // Long enough for two more rounds of ticks, had every tick printed a line.
        let watch = try BinaryRunner.run(["watch", "--plain", "--state-dir", dir], signal: SIGTERM, signalAfter: 3.5)
        let lines = watch.stdout.split(separator: "\n")
        #expect(lines.count == Self.count, "\(lines.count) lines: \(lines.prefix(3)) \(watch.stderr)")
        #expect(lines.allSatisfy { $0.contains(": running  00:59:") })
        // With --ticks, a line per tick as before.
        let ticking = try BinaryRunner.run(["watch", "--plain", "--ticks", "cd-001", "--state-dir", dir], signal: SIGTERM, signalAfter: 3.5)
        #expect(ticking.stdout.split(separator: "\n").count >= 3, "\(ticking.stdout)")
    }
}
