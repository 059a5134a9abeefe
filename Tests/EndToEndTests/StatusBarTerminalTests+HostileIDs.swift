import Foundation
import Testing

extension StatusBarTerminalTests {
    /// Ids as stored (Lua literals) and as tmux must draw them: tmux expands
    /// `#[...]`, `#{...}` and `#(...)` in what a `#(...)` command prints.
    static let tmuxHostileIDs: [(lua: String, shown: String)] = [
        ("[[#[fg=red,bg=yellow]restyled]]", "#[fg=red,bg=yellow]restyled"),
        ("[[#{pane_current_path}#{host}]]", "#{pane_current_path}#{host}"),
        ("[[#(echo tmux-ran)]]", "#(echo tmux-ran)"),
        ("[[## and # alone]]", "## and # alone"),
        ("[[R&D <b>]]", "R&D <b>"),
        // polybar's rule holds for every status line.
        ("[[%{F#ff0000}red]]", "% {F#ff0000}red"),
        ("[[50%]]", "50%"),
        (#""esc\27[31m""#, #"esc\e[31m"#),
    ]

    @Test("tmux's status-right running status --for tmux draws ids holding #[...], #{...} and #(...) as they are stored: unstyled, unexpanded, nothing run")
    func tmuxDrawsHostileIDsAsText() throws {
        let dir = try Self.scratch("status-hostile")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let seed = Self.tmuxHostileIDs.enumerated().map { index, id in
            "countdown.start{ id = \(id.lua), seconds = \(100 + index), persist = true }:pause()"
        }
        let seeded = try BinaryRunner.run(["--state-dir", dir, try BinaryRunner.script(seed.joined(separator: "\n") + "\nos.exit(0)")])
        #expect(seeded.status == 0, "\(seeded.stderr)")
        // The documented line, run from a script so that no path needs quoting for tmux.
        let job = dir + "/status.sh"
        try "#!/bin/sh\nexec '\(BinaryRunner.binary.path)' status --for tmux --format '{id}' --separator '|' --state-dir '\(dir)'\n"
            .write(toFile: job, atomically: true, encoding: .utf8)
        chmod(job, 0o755)

        let inner = try Tmux(["watch", "--state-dir", dir], columns: 200, rows: 6)
        defer { inner.stop() }
        try inner.command("set", "-g", "status", "on")
        try inner.command("set", "-g", "status-interval", "1")
        try inner.command("set", "-g", "status-right-length", "400")
        try inner.command("set", "-g", "status-right", "#(\(job))")
        // A status line is drawn only for an attached client.
        let client = try AttachedTmuxClient(inner, columns: 220, rows: 8)
        defer { client.stop() }
        let expected = Self.tmuxHostileIDs.map(\.shown).joined(separator: "|")
        var drawn = ""
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            drawn = client.statusLine()
            if drawn.contains("50%") { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(drawn.trimmingCharacters(in: .whitespaces).hasSuffix(expected), "tmux drew \(drawn.debugDescription)")
    }
}
