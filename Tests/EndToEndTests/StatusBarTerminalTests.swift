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

    @Test("tmux's status-right shows a running timer with #(cdscript status --for tmux ID), the documented line, and moves on with it")
    func tmuxStatusRight() throws {
        let dir = try Self.scratch("status-right")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let inner = try Tmux(["timer", "5m", "--id", "tea", "--state-dir", dir], columns: 80, rows: 12)
        defer { inner.stop() }
        try inner.waitForText("█")
        try inner.command("set", "-g", "status", "on")
        try inner.command("set", "-g", "status-interval", "1")
        try inner.command("set", "-g", "status-right", "#(\(BinaryRunner.binary.path) status --for tmux --state-dir \(dir) tea --format 'tea {left}')")
        // A status line is drawn only for an attached client.
        let client = try AttachedTmuxClient(inner)
        defer { client.stop() }
        func statusLine() throws -> String { client.statusLine() }
        var seen: [String] = []
        try inner.waitUntil("the timer in the attached client's status-right, at two different times", timeout: 20) {
            let line = try statusLine()
            if let range = line.range(of: #"tea (5:00|4:[0-5][0-9])"#, options: .regularExpression) {
                let shown = String(line[range])
                if seen.last != shown { seen.append(shown) }
            }
            return seen.count >= 2
        }
        #expect(seen.count >= 2, "\(seen)")
    }

    /// Runs a shell command with no descriptor of ours (a tmux server it starts
    /// keeps none open), for at most 10 s; its exit status.
    @discardableResult
    static func shell(_ command: String) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command + " </dev/null 2>/dev/null"]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        return process.isRunning ? -1 : process.terminationStatus
    }

    @Test("run --watch: a broken save shows on the view's bottom row while the old version runs on; the next save replaces the view")
    func reloadErrorOnBottomRow() throws {
        let dir = try Self.scratch("reload-view")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let script = dir + "/clock.lua"
        func version(_ label: String) -> String {
            """
            view.label{ id = "clock", text = "" }
            countdown.start{ id = "c", seconds = 300, on_tick = function(t)
              view.set("clock", { text = "\(label) " .. countdown.format(t, "{S}") })
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
        #expect(rows.last?.hasPrefix("reload failed: ") == true, "\(rows)")
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
