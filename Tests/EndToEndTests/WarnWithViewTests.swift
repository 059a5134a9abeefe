import Foundation
import Testing

@Suite("warn with the view open: the real binary in tmux")
struct WarnWithViewTests {
    @Test("warnings (and errors in __gc) while the view is open are kept and written after the terminal is restored")
    func keptUntilRestored() throws {
        let path = try BinaryRunner.script("""
            warn("@on")
            view.label{ id = "status", text = "view is open" }
            warn("while the view ", "is open")
            setmetatable({}, { __gc = function() error("in gc") end })
            collectgarbage()
            countdown.start{ seconds = 0.3, on_done = function() view.close() end }
            """)
        let tmux = try Tmux([path], columns: 200, rows: 12)
        defer { tmux.stop() }
        try tmux.waitForText("view is open")
        #expect(try !tmux.screen().contains("Lua warning"))
        try tmux.waitUntil("the end of the run") { tmux.hasEnded }
        #expect(tmux.exitStatus == 0)
        #expect(try tmux.display("#{alternate_on} #{cursor_flag}") == "0 1")
        let screen = try tmux.screen()
        #expect(screen.contains("Lua warning: while the view is open"), "\(screen)")
        #expect(screen.contains("Lua warning: error in __gc ("), "\(screen)")
        #expect(screen.contains(":4: in gc)"), "\(screen)")
    }
}
