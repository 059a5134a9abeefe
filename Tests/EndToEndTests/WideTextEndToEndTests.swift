import Foundation
import Testing

/// Issue 13 in a real terminal (tmux, UTF-8): Chinese and emoji drawn at their
/// width, no stale cells, long rows cut, the pause shown.
@Suite("Wide characters and the pause note in a real terminal",
       .enabled(if: Tmux.isAvailable, "needs tmux (scripts/setup installs it)"))
struct WideTextEndToEndTests {
    static let script = """
        local texts = { "倒计时还有十秒钟", "ab", "🍅🍅🍅", "x" }
        local i = 1
        view.label{ id = "heading", text = "限时抢购" }
        view.label{ id = "cycle", text = texts[1] }
        view.label{ id = "long", text = string.rep("长", 60) }
        view.button{ id = "next", label = "next", key = "n", on_press = function()
          i = i % #texts + 1
          view.set("cycle", { text = texts[i] })
        end }
        countdown.start{ seconds = 600 }
        """

    /// `text` centred in 80 columns, `width` columns wide.
    func centred(_ text: String, width: Int) -> String { String(repeating: " ", count: (80 - width) / 2) + text }

    @Test("a label cycling 倒计时还有十秒钟 → ab → 🍅🍅🍅 → x leaves no stale cells; 长 × 60 is cut with …; 限时抢购 is centred")
    func labelCycle() throws {
        let path = try BinaryRunner.script(Self.script)
        let tmux = try Tmux([path], columns: 80, rows: 9, environment: ["LANG": "C.UTF-8"])
        defer { tmux.stop() }
        try tmux.waitForText("[ next (n) ]")
        let long = String(repeating: "长", count: 39) + "…"
        func expected(_ cycle: String, width: Int) -> [String] {
            ["", centred("限时抢购", width: 8), "", centred(cycle, width: width), "", long, "", centred("[ next (n) ]", width: 12), ""]
        }
        try tmux.waitUntil("the first screen") { try tmux.lines() == expected("倒计时还有十秒钟", width: 16) }
        for (text, width) in [("ab", 2), ("🍅🍅🍅", 6), ("x", 1), ("倒计时还有十秒钟", 16), ("ab", 2)] {
            try tmux.send("n")
            try tmux.waitUntil("the label showing \(text) and nothing else") { try tmux.lines() == expected(text, width: width) }
        }
        // Space pauses the countdown: the bottom row says so; Space again clears it.
        try tmux.send("Space")
        try tmux.waitUntil("the pause note") { try tmux.lines().last == centred("paused — Space to resume", width: 24) }
        try tmux.send("Space")
        try tmux.waitUntil("the pause note gone") { try tmux.lines() == expected("ab", width: 2) }
        try tmux.send("q")
        try tmux.waitUntil("the end of the run") { tmux.hasEnded }
        #expect(tmux.exitStatus == 8)  // q while the countdown runs
    }
}

@Suite("The pause in plain mode")
struct PlainPauseEndToEndTests {
    @Test("Space (a line 'space') prints a line on pause and on resume; the countdown holds meanwhile")
    func plainPauseLines() throws {
        let run = try InteractiveRun(["examples/sms_code.lua", "30"])
        try run.waitForLine("status: Resend in 30s")
        run.send("space\n")
        try run.waitForLine("paused — Space to resume")
        Thread.sleep(forTimeInterval: 1.5)
        #expect(!run.lines.contains("status: Resend in 28s"))
        run.send("space\n")
        try run.waitForLine("resumed")
        run.send("q\n")
        #expect(try run.wait() == 8)  // q while the cooldown runs
        let lines = run.lines
        let paused = try #require(lines.firstIndex(of: "paused — Space to resume"))
        let resumed = try #require(lines.firstIndex(of: "resumed"))
        #expect(paused < resumed)
    }
}
