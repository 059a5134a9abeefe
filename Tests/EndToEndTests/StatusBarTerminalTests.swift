import Foundation
import Testing

/// Status bars and `run --watch` in a real terminal (tmux).
@Suite("Status bars and reloads in a terminal", .enabled(if: Tmux.isAvailable, "needs tmux (scripts/setup installs it)"))
struct StatusBarTerminalTests {
    static func scratch(_ name: String) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-\(name)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test("tmux's status-right shows a running timer with #(cdscript status ID), and moves on with it")
    func tmuxStatusRight() throws {
        let dir = try Self.scratch("status-right")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let tmux = try Tmux(["timer", "5m", "--id", "tea", "--state-dir", dir], columns: 80, rows: 12)
        defer { tmux.stop() }
        try tmux.command("set", "-g", "status-interval", "1")
        try tmux.command("set", "-g", "status-right", "#(\(BinaryRunner.binary.path) status --state-dir \(dir) tea --format '⏲ {left}')")
        var seen: [String] = []
        try tmux.waitUntil("the timer in status-right, twice", timeout: 15) {
            let shown = try tmux.display("#{E:status-right}")
            if shown.range(of: #"^⏲ (5:00|4:[0-5][0-9])$"#, options: .regularExpression) != nil, seen.last != shown { seen.append(shown) }
            return seen.count >= 2
        }
        #expect(seen.count >= 2, "\(seen)")
    }

    @Test("run --watch: a broken save shows on the view's bottom row while the old version runs on; the next save replaces the view")
    func reloadErrorOnBottomRow() throws {
        let dir = try Self.scratch("reload-view")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let script = dir + "/clock.lua"
        func version(_ label: String) -> String {
            """
            countdown.start{ id = "c", seconds = 300, on_tick = function(t)
              if view.get("clock") then view.set("clock", { text = "\(label) " .. countdown.format(t, "{S}") })
              else view.label{ id = "clock", text = "\(label) " .. countdown.format(t, "{S}") } end
            end }
            """
        }
        try version("old").write(toFile: script, atomically: true, encoding: .utf8)
        let tmux = try Tmux(["run", "--watch", script], columns: 80, rows: 10)
        defer { tmux.stop() }
        try tmux.waitForText("old 29")
        try "countdown.start{ id = 'c', seconds = 300 ".write(toFile: script, atomically: true, encoding: .utf8)
        try tmux.waitForText("reload failed: ")
        let rows = try tmux.lines()
        #expect(rows.last?.contains("the previous version runs on") == true, "\(rows)")
        #expect(rows.contains { $0.contains("old 2") }, "the old version still draws: \(rows)")
        try version("new").write(toFile: script, atomically: true, encoding: .utf8)
        try tmux.waitForText("new 2")
        let after = try tmux.screen()
        #expect(!after.contains("old "), "\(after)")
        #expect(!after.contains("reload failed"), "\(after)")
        try tmux.send("q")
        try tmux.waitUntil("the end of the run") { tmux.hasEnded }
        #expect(tmux.exitStatus == 8)
    }
}
