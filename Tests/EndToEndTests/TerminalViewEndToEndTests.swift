import Foundation
import Testing

/// The real binary in a real terminal (tmux), as a user sees it.
@Suite("cdscript in a terminal: the view drawn, pressed, resized and always restored",
       .enabled(if: Tmux.isAvailable, "needs tmux (scripts/setup installs it)"))
struct TerminalViewEndToEndTests {
    /// The row of `lines` that contains `text`.
    func row(_ text: String, in lines: [String]) -> Int? { lines.firstIndex { $0.contains(text) } }

    @Test("the resend button is disabled during a short cooldown, enables itself, and r starts the cooldown again")
    func resendButton() throws {
        let tmux = try Tmux(["examples/sms_code.lua", "1"], columns: 40, rows: 7)
        defer { tmux.stop() }
        try tmux.waitForText("[ Resend code (r) ]")
        try tmux.waitUntil("alternate screen, cursor hidden") {
            try tmux.display("#{alternate_on} #{cursor_flag}") == "1 0"
        }
        // Disabled: drawn dim.
        let dimButton = "\u{1B}[2m[ Resend code (r) ]"
        try tmux.waitUntil("the dim button") { try tmux.screen(escapes: true).contains(dimButton) }
        // The cooldown ends: the status changes and the button is drawn bold green.
        try tmux.waitForText("Didn't get the code?")
        let screen = try tmux.screen(escapes: true)
        #expect(!screen.contains(dimButton))
        #expect(screen.contains("\u{1B}[1m\u{1B}[32m[ Resend code (r) ]"), "\(screen.debugDescription)")
        #expect(try tmux.lines() == [
            "", "",
            "          Didn't get the code?",
            "",
            "          [ Resend code (r) ]",
            "", "",
        ])
        try tmux.send("r")
        try tmux.waitForText("Resend in 1s")
        try tmux.waitUntil("the dim button again") { try tmux.screen(escapes: true).contains(dimButton) }
        try tmux.waitForText("Didn't get the code?")
        try tmux.send("q")
        try tmux.waitUntil("the end of the run") { tmux.hasEnded }
        #expect(tmux.exitStatus == 0)
        #expect(try tmux.display("#{alternate_on} #{cursor_flag}") == "0 1")
    }

    @Test("a resize redraws the view to fit, down to one line; ticks never clear the whole screen")
    func resize() throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-tmux-\(UUID().uuidString).out")
        defer { try? FileManager.default.removeItem(at: log) }
        let tmux = try Tmux(["examples/sms_code.lua", "30"], columns: 40, rows: 7, recording: log)
        defer { tmux.stop() }
        try tmux.waitForText("Resend in 29s")
        try tmux.resize(columns: 24, rows: 3)
        try tmux.waitUntil("the view redrawn for 24x3") {
            let lines = try tmux.lines()
            return lines.count == 3 && lines[2] == "  [ Resend code (r) ]" && lines[0].hasPrefix("     Resend in ")
        }
        try tmux.resize(columns: 20, rows: 1)
        try tmux.waitUntil("one line: the label alone") {
            let lines = try tmux.lines()
            return lines.count == 1 && lines[0].hasPrefix("   Resend in ")
        }
        try tmux.resize(columns: 40, rows: 7)
        try tmux.waitForText("Resend in 27s")
        try tmux.waitUntil("the full view again") { try tmux.lines().contains("          [ Resend code (r) ]") }
        try tmux.send("q")
        try tmux.waitUntil("the end of the run") { tmux.hasEnded }
        let output = try String(decoding: Data(contentsOf: log), as: UTF8.self)
        // One clear for the first frame and one per resize; the ticks in between only rewrite digits.
        #expect(output.components(separatedBy: "\u{1B}[2J").count - 1 == 4)
        #expect(output.contains("\u{1B}[?1049l"))
    }

    @Test("Ctrl-C leaves the alternate screen, shows the cursor and exits 130")
    func interrupt() throws {
        let tmux = try Tmux(["examples/sms_code.lua", "3600"], columns: 60, rows: 12)
        defer { tmux.stop() }
        try tmux.waitForText("Resend in 3600s")
        try tmux.waitUntil("alternate screen") { try tmux.display("#{alternate_on} #{cursor_flag}") == "1 0" }
        try tmux.send("C-c")
        try tmux.waitUntil("the end of the run") { tmux.hasEnded }
        #expect(tmux.exitStatus == 130)
        #expect(try tmux.display("#{alternate_on} #{cursor_flag}") == "0 1")
        #expect(try !tmux.screen().contains("Resend in"))
    }

    @Test("SIGTERM and SIGHUP restore the terminal too, with their exit codes", arguments: [(SIGTERM, 143), (SIGHUP, 129)])
    func terminatingSignals(signal: Int32, status: Int) throws {
        let tmux = try Tmux(["examples/sms_code.lua", "30"], columns: 40, rows: 7)
        defer { tmux.stop() }
        try tmux.waitForText("Resend in 30s")
        try tmux.waitUntil("alternate screen") { try tmux.display("#{alternate_on} #{cursor_flag}") == "1 0" }
        kill(try #require(try tmux.programPID()), signal)
        try tmux.waitUntil("the end of the run") { tmux.hasEnded }
        #expect(tmux.exitStatus == status)
        #expect(try tmux.display("#{alternate_on} #{cursor_flag}") == "0 1")
    }

    @Test("Ctrl-Z (SIGTSTP) gives the terminal back before stopping; SIGCONT redraws with the true remaining time")
    func suspend() throws {
        let tmux = try Tmux(["examples/sms_code.lua", "30"], columns: 40, rows: 7)
        defer { tmux.stop() }
        try tmux.waitForText("Resend in 29s")
        let pid = try #require(try tmux.programPID())
        // As the terminal's Ctrl-Z does, but to the program only: the waiting
        // shell has no job control and would stop too.
        kill(pid, SIGTSTP)
        try tmux.waitUntil("the terminal given back") { try tmux.display("#{alternate_on} #{cursor_flag}") == "0 1" }
        try tmux.waitUntil("the process stopped") {
            (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8))?.contains(") T ") == true
        }
        Thread.sleep(forTimeInterval: 2.2)
        kill(pid, SIGCONT)
        try tmux.waitUntil("the view back") { try tmux.display("#{alternate_on} #{cursor_flag}") == "1 0" }
        try tmux.waitUntil("the whole view redrawn with the time that passed while stopped") {
            let lines = try tmux.lines()
            return lines.contains("          [ Resend code (r) ]")
                && (lines.contains("             Resend in 27s") || lines.contains("             Resend in 26s"))
        }
        try tmux.send("q")
        try tmux.waitUntil("the end of the run") { tmux.hasEnded }
        #expect(tmux.exitStatus == 8)  // q while the cooldown runs
    }

    @Test("a script error after the view opened restores the terminal and shows the error")
    func scriptError() throws {
        let path = try BinaryRunner.script("""
            view.label{ id = "status", text = "about to fail" }
            print("printed while the view was open")
            view.set("status", { text = 42 })
            """)
        let tmux = try Tmux([path], columns: 200, rows: 10)
        defer { tmux.stop() }
        try tmux.waitUntil("the end of the run") { tmux.hasEnded }
        #expect(tmux.exitStatus == 2)
        #expect(try tmux.display("#{alternate_on} #{cursor_flag}") == "0 1")
        let screen = try tmux.screen()
        #expect(screen.contains("printed while the view was open"))
        #expect(screen.contains("script.lua:3: view.set: 'text' must be a string, got number"), "\(screen)")
        #expect(!screen.contains("about to fail"))
    }

    @Test("NO_COLOR and --no-color draw without colours; --plain prints lines in a terminal too")
    func colourAndPlain() throws {
        for (arguments, environment) in [(["--no-color"], [:]), ([], ["NO_COLOR": "1"])] {
            let tmux = try Tmux(arguments + ["examples/sms_code.lua", "1"], columns: 40, rows: 7, environment: environment)
            defer { tmux.stop() }
            try tmux.waitForText("Didn't get the code?")
            let screen = try tmux.screen(escapes: true)
            #expect(screen.contains("\u{1B}[1m[ Resend code (r) ]"), "\(screen.debugDescription)")
            #expect(!screen.contains("[32m"))
            try tmux.send("q")
            try tmux.waitUntil("the end of the run") { tmux.hasEnded }
        }
        let tmux = try Tmux(["--plain", "examples/sms_code.lua", "1"], columns: 40, rows: 8)
        defer { tmux.stop() }
        try tmux.waitForText("resend: [Resend code] enabled")
        #expect(try tmux.display("#{alternate_on}") == "0")
        try tmux.send("q", "Enter")
        try tmux.waitUntil("the end of the run") { tmux.hasEnded }
        #expect(tmux.exitStatus == 0)
    }
}
