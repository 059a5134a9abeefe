import Foundation

/// A second tmux whose one window is a client attached to `inner`'s session: tmux
/// draws a status line only for an attached client, and this one's screen is read
/// back. It is started by the first tmux server (Foundation's Process would wait on
/// the client's forked server), and killed by `stop()`.
final class AttachedTmuxClient {
    private let outer: String
    private let screenFile: String

    init(_ inner: Tmux, columns: Int = 100, rows: Int = 14) throws {
        outer = "\(inner.socket)-outer"
        screenFile = FileManager.default.temporaryDirectory.appendingPathComponent("\(outer).screen").path
        let attach = "env -u TMUX tmux -L \(inner.socket) attach -t t"
        try inner.command("run-shell", "-b", "tmux -L \(outer) -f /dev/null new-session -d -s o -x \(columns) -y \(rows) '\(attach)' </dev/null >/dev/null 2>&1")
    }

    /// The last line of the client's screen that is not empty: the status line.
    func statusLine() -> String {
        StatusBarTerminalTests.shell("tmux -L \(outer) capture-pane -p -t o > '\(screenFile)'")
        let captured = (try? String(contentsOfFile: screenFile, encoding: .utf8)) ?? ""
        return captured.split(separator: "\n").map(String.init).last { !$0.isEmpty } ?? ""
    }

    func stop() {
        StatusBarTerminalTests.shell("tmux -L \(outer) kill-server")
        try? FileManager.default.removeItem(atPath: screenFile)
    }
}
