import Testing

/// Issue 29: a hook that fails while the view is open shows its error on the
/// bottom row at once, with the countdown's id and the message (no traceback);
/// the full report still goes to `reportError` (stderr, written out after the
/// terminal is given back), and the rest of the view runs on.
@Suite("A failing hook shows on the open view at once")
struct HookErrorLineTests {
    @Test("on_tick fails: its countdown stops, the line shows, the other countdown keeps the label moving")
    func tickError() {
        let h = ViewHarness(columns: 60, rows: 5)
        #expect(h.run("""
            view.label{ id = "left", text = "" }
            countdown.start{ id = "ok", seconds = 5, on_tick = function(t) view.set("left", { text = "left " .. t.seconds }) end }
            countdown.start{ id = "bad\\n1", seconds = 5, on_tick = function(t)
              if t.seconds == 3 then error("boom\\27[2J") end
            end }
            """) == nil)
        h.advance(1)
        #expect(h.screen == rows("", "", "                           left 4", "", ""))
        h.advance(1)
        let line = #"error in on_tick of countdown "bad\n1": test:4: boom\e[2J"#
        #expect(h.screen == rows("", "                           left 3", "", "", String(repeating: " ", count: (60 - line.count) / 2) + line))
        #expect(h.errors.count == 1)
        #expect(h.errors.first?.contains("stack traceback:") == true, "\(h.errors)")
        #expect(h.scheduler.key(forID: "bad\n1") == nil)
        h.advance(1)
        #expect(h.screen.contains("left 2"))
        #expect(h.screen.hasSuffix(line))
    }

    @Test("on_press fails: the line names the button")
    func pressError() {
        let h = ViewHarness(columns: 60, rows: 4)
        #expect(h.run("""
            view.label{ id = "status", text = "ready" }
            view.button{ id = "go", label = "Go", key = "g", on_press = function() error("no go", 0) end }
            """) == nil)
        _ = h.press("g")
        #expect(h.screen.hasSuffix(#"error in on_press of button "go": no go"#), "\(h.screen)")
        #expect(h.screen.contains("ready"))
    }
}
