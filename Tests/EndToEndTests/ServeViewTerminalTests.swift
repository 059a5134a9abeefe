import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TestPorts
import Testing

/// `run SCRIPT --serve` with stdout a terminal: the terminal view and the page
/// both show the view, and a press from the page reaches the script the
/// terminal shows. The real binary in tmux; the page's side through curl.
@Suite("run --serve in a terminal: both views",
       .enabled(if: Tmux.isAvailable, "needs tmux (scripts/setup installs it)"),
       .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/curl"), "needs curl"))
struct ServeViewTerminalTests {
    /// A loopback port free a moment ago (the kernel's pick for port 0, released).
    static func curl(_ arguments: [String]) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        p.arguments = ["-s", "-w", " %{http_code}"] + arguments
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return text
    }

    @Test("the terminal draws the view while the page serves it; a press through the page restarts the cooldown on the terminal; q ends the run")
    func bothViews() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("serve-view-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let port = try LoopbackPort.free()
        let tmux = try Tmux(["run", "--state-dir", dir, "--serve", "127.0.0.1:\(port)", "examples/sms_code.lua", "1"], columns: 60, rows: 8)
        defer { tmux.stop() }
        try tmux.waitForText("Didn't get the code?", timeout: 20)
        #expect(try tmux.display("#{alternate_on}") == "1")
        let view = try Self.curl(["http://127.0.0.1:\(port)/api/view"])
        #expect(view.contains("\"text\":\"Didn't get the code?\"") && view.hasSuffix(" 200"), "\(view)")
        let token = try String(contentsOfFile: dir + "/serve-token", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let pressed = try Self.curl(["-X", "POST", "-H", "Authorization: Bearer \(token)", "--data", #"{"key":"r"}"#,
                                     "http://127.0.0.1:\(port)/api/view/press"])
        #expect(pressed.hasSuffix(" 202"), "\(pressed)")
        try tmux.waitForText("Resend in 1s")
        try tmux.send("q")
        try tmux.waitUntil("the end of the run") { tmux.hasEnded }
        // Said before the view opened, so it is on the screen the terminal gets back.
        #expect(try tmux.screen().contains("serving the view at http://127.0.0.1:\(port)/"))
        #expect(try Self.curl(["--max-time", "2", "http://127.0.0.1:\(port)/api/view"]).hasSuffix(" 000"), "the server ended with the run")
    }
}
