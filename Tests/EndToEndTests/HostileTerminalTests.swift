import Foundation
import Testing

/// Hostile scripts with the view open in a real terminal (tmux): the offending
/// callbacks end with clear errors, the other countdown runs to its end, and the
/// terminal is given back.
@Suite("Hostile scripts in a terminal: the view goes on and the terminal is restored",
       .enabled(if: Tmux.isAvailable, "needs tmux (scripts/setup installs it)"))
struct HostileTerminalTests {
    @Test("a runaway hook and a memory bomb under the view: clear errors, the steady countdown finishes, the terminal is restored")
    func runawayAndBombUnderTheView() throws {
        let path = try BinaryRunner.script("""
            view.label{ id = "status", text = "steady 2" }
            countdown.start{ id = "spin", seconds = 5, every = 0.2,
              on_tick = function(t) if t.remaining < 4.9 then while true do end end end }
            countdown.start{ id = "bomb", seconds = 5, every = 0.2,
              on_tick = function(t) if t.remaining < 4.9 then local h = {} for i = 1, 1e9 do h[i] = {} end end end }
            countdown.start{ id = "steady", seconds = 1.5, every = 0.5,
              on_tick = function(t) view.set("status", { text = ("steady %.1f"):format(t.remaining) }) end,
              on_done = function() print("steady finished") view.close() end }
            """)
        let tmux = try Tmux(["run", "--budget", "5000000", "--memory-limit", "64M", path], columns: 200, rows: 20)
        defer { tmux.stop() }
        try tmux.waitUntil("the end of the run", timeout: 20) { tmux.hasEnded }
        #expect(tmux.exitStatus == 1)
        #expect(try tmux.display("#{alternate_on} #{cursor_flag}") == "0 1")
        let screen = try tmux.screen()
        #expect(screen.contains("steady finished"), "\(screen)")
        #expect(screen.contains("error in on_tick of countdown \"spin\": "), "\(screen)")
        #expect(screen.contains("instruction budget exceeded"))
        #expect(screen.contains("error in on_tick of countdown \"bomb\": memory limit exceeded"), "\(screen)")
    }
}
