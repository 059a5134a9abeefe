import Foundation
import Testing

/// Issue 39, "The terminal after Ctrl-Z": after Ctrl-Z and `fg` the whole frame
/// is drawn again, and after `q` the shell's screen holds nothing of the view.
@Suite("The terminal after Ctrl-Z", .enabled(if: Tmux.isAvailable, "needs tmux (scripts/setup installs it)"))
struct SuspendRedrawTests {
    @Test("Ctrl-Z, fg, q: the frame comes back whole, and the shell's screen is left clean", arguments: 1...3)
    func suspendAndResume(round: Int) throws {
        let tmux = try Tmux(["timer", "60", "--title", "Tea"], columns: 60, rows: 14)
        defer { tmux.stop() }
        try tmux.waitUntil("the progress bar") { try tmux.screen().contains("█") && tmux.screen().contains("Tea") }
        let pid = try #require(try tmux.programPID())
        // As the terminal's Ctrl-Z does, to the program only (the waiting shell is
        // no job-control shell: SIGCONT stands for `fg`).
        kill(pid, SIGTSTP)
        try tmux.waitUntil("the terminal given back") { try tmux.display("#{alternate_on}") == "0" }
        try tmux.waitUntil("the program stopped") { StopWhileHookRunsTests.stat(pid)?.state == "T" }
        // Stopped across at least one tick: the catch-up tick comes first after fg.
        Thread.sleep(forTimeInterval: 1.2)
        let stopped = try tmux.screen()
        #expect(!stopped.contains("█"), "nothing drawn while stopped: \(stopped)")
        kill(pid, SIGCONT)
        try tmux.waitUntil("the view back") { try tmux.display("#{alternate_on}") == "1" }
        // The whole frame: title, digits and the bar, not only what changed.
        try tmux.waitUntil("the whole frame again") {
            let screen = try tmux.screen()
            return screen.contains("Tea") && screen.contains("%") && screen.contains("█")
        }
        try tmux.send("q")
        try tmux.waitUntil("the end of the run") { tmux.hasEnded }
        #expect(tmux.exitStatus == 8)
        let after = try tmux.screen()
        #expect(!after.contains("█") && !after.contains("%") && !after.contains("Tea"), "left on the shell's screen:\n\(after)")
    }
}
