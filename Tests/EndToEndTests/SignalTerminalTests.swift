import Foundation
import Testing

@Suite("A signal gives the terminal back, even when the script does not stop", .serialized,
       .enabled(if: Tmux.isAvailable, "needs tmux (scripts/setup installs it)"))
struct SignalTerminalTests {
    @Test("busy on_press (interrupted) and a C loop (forced): the pane leaves the alternate screen with the cursor shown",
          arguments: [("while true do end", 130), ("table.move({}, 1, math.maxinteger - 1, 2)", 130)])
    func restored(body: String, status: Int) throws {
        let path = try BinaryRunner.script("""
            view.label{ id = "status", text = "press x" }
            view.button{ id = "spin", label = "Spin", key = "x", on_press = function() \(body) end }
            countdown.start{ seconds = 60 }
            """)
        let tmux = try Tmux([path], columns: 40, rows: 8)
        defer { tmux.stop() }
        try tmux.waitForText("press x")
        try tmux.waitUntil("alternate screen") { try tmux.display("#{alternate_on} #{cursor_flag}") == "1 0" }
        try tmux.send("x")
        Thread.sleep(forTimeInterval: 0.2)
        let pid = try #require(try tmux.programPID())
        kill(pid, SIGINT)
        let sent = Date()
        try tmux.waitUntil("the end of the run", timeout: 3) { tmux.hasEnded }
        #expect(Date().timeIntervalSince(sent) < SignalTests.endBound + 0.3)  // plus tmux's polling
        #expect(tmux.exitStatus == status)
        #expect(try tmux.display("#{alternate_on} #{cursor_flag}") == "0 1")
    }

    @Test("SIGQUIT, SIGUSR1 and a crash (SIGSEGV) with the view open: terminal restored before the process dies, at once",
          arguments: [SIGQUIT, SIGUSR1, SIGSEGV])
    func fatal(signal: Int32) throws {
        let tmux = try Tmux(["examples/sms_code.lua", "30"], columns: 40, rows: 7)
        defer { tmux.stop() }
        try tmux.waitForText("Resend in")
        try tmux.waitUntil("alternate screen") { try tmux.display("#{alternate_on} #{cursor_flag}") == "1 0" }
        kill(try #require(try tmux.programPID()), signal)
        try tmux.waitUntil("the end of the run", timeout: 3) { tmux.hasEnded }
        #expect(tmux.exitStatus == 128 + Int(signal))
        #expect(try tmux.display("#{alternate_on} #{cursor_flag}") == "0 1")
    }

    @Test("output printed while the view is open is kept up to 8 MB, then cut with a note")
    func boundedOutput() throws {
        let path = try BinaryRunner.script("""
            view.label{ id = "status", text = "printing" }
            local line = string.rep("y", 1023)
            for i = 1, 12 * 1024 do print(line) end
            io.stderr:write("stderr line\\n")
            view.close()
            """)
        let tmux = try Tmux([path], columns: 60, rows: 8)
        defer { tmux.stop() }
        try tmux.waitUntil("the end of the run", timeout: 30) { tmux.hasEnded }
        #expect(tmux.exitStatus == 0)
        let screen = try tmux.screen().replacingOccurrences(of: "\n", with: "")  // rows wrap at 60 columns
        #expect(screen.contains("passed 8 MB; the rest was dropped"), "\(screen)")
        #expect(screen.contains("stderr line"))
        #expect(try tmux.display("#{alternate_on} #{cursor_flag}") == "0 1")
    }
}
