import Foundation
import Testing

extension StatusBarTerminalTests {
    @Test("tmux's status-right, the documented line, shows a pomodoro that runs over as ⏰ counting up (never ⏲ 0), and ⏸ once it is paused")
    func tmuxShowsOvertime() throws {
        let dir = try Self.scratch("status-overtime")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let inner = try Tmux(["timer", "1s", "--overtime", "--id", "pomodoro", "--state-dir", dir], columns: 80, rows: 12)
        defer { inner.stop() }
        // The documented line, run from a script so that no path needs quoting for tmux.
        let job = dir + "/status.sh"
        try "#!/bin/sh\nexec '\(BinaryRunner.binary.path)' status --for tmux pomodoro --format '{icon} {left}' --state-dir '\(dir)'\n"
            .write(toFile: job, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: job)
        try inner.command("set", "-g", "status", "on")
        try inner.command("set", "-g", "status-interval", "1")
        try inner.command("set", "-g", "status-right-length", "60")
        try inner.command("set", "-g", "status-right", "[#(\(job))]")
        // A status line is drawn only for an attached client.
        let client = try AttachedTmuxClient(inner)
        defer { client.stop() }
        func statusLine() -> String { client.statusLine() }
        func shown(_ line: String) -> String? {
            guard let open = line.lastIndex(of: "["), let close = line.lastIndex(of: "]"), open < close else { return nil }
            return String(line[line.index(after: open)..<close])
        }
        var seen: [String] = []
        try inner.waitUntil("the pomodoro counting up past its end in the attached client's status-right", timeout: 25) {
            if let text = shown(statusLine()), text.hasPrefix("⏰ +"), seen.last != text { seen.append(text) }
            return seen.count >= 2
        }
        #expect(seen.count >= 2, "\(seen)")
        let paused = try BinaryRunner.run(["pause", "pomodoro", "--state-dir", dir])
        #expect(paused.status == 0, "\(paused.stderr)")
        try inner.waitUntil("the paused pomodoro marked ⏸", timeout: 15) { shown(statusLine())?.hasPrefix("⏸ +") == true }
        #expect(!seen.contains { $0.contains("⏲") }, "\(seen)")
    }
}
