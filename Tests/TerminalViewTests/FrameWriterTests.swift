import Testing
@testable import TerminalView

@Suite("FrameWriter: only changed cells are written; a resize clears once")
struct FrameWriterTests {
    let size = TerminalSize(columns: 30, rows: 7)

    @Test("the first frame clears the screen and draws everything")
    func firstFrame() throws {
        var writer = FrameWriter()
        let frame = writer.frame(Layout().compose(try smsModel(), size: size))
        #expect(frame.hasPrefix("\u{1B}[0m\u{1B}[H\u{1B}[2J"))
        let terminal = VirtualTerminal(columns: 30, rows: 7)
        terminal.write(frame)
        #expect(terminal.screenText() == Layout().compose(try smsModel(), size: size).text)
    }

    @Test("a ticking label rewrites only its changed span, without clearing")
    func tick() throws {
        var writer = FrameWriter()
        _ = writer.frame(Layout().compose(try smsModel(status: "Resend in 59s"), size: size))
        let frame = writer.frame(Layout().compose(try smsModel(status: "Resend in 58s"), size: size))
        #expect(frame == "\u{1B}[3;20H\u{1B}[0m8")
        #expect(!frame.contains("\u{1B}[2J"))
    }

    @Test("an unchanged screen writes nothing")
    func unchanged() throws {
        var writer = FrameWriter()
        let screen = Layout().compose(try smsModel(), size: size)
        _ = writer.frame(screen)
        #expect(writer.frame(screen) == "")
    }

    @Test("a style change rewrites the cells with the new attributes and resets after")
    func styleChange() throws {
        var writer = FrameWriter()
        _ = writer.frame(Layout().compose(try smsModel(enabled: false), size: size))
        let frame = writer.frame(Layout().compose(try smsModel(enabled: true), size: size))
        #expect(frame == "\u{1B}[5;6H\u{1B}[0;1;32m[ Resend code (r) ]\u{1B}[0m")
    }

    @Test("after a resize or invalidate the next frame clears and redraws all")
    func resize() throws {
        var writer = FrameWriter()
        _ = writer.frame(Layout().compose(try smsModel(), size: size))
        let smaller = writer.frame(Layout().compose(try smsModel(), size: TerminalSize(columns: 20, rows: 3)))
        #expect(smaller.contains("\u{1B}[2J"))
        writer.invalidate()
        #expect(writer.frame(Layout().compose(try smsModel(), size: TerminalSize(columns: 20, rows: 3))).contains("\u{1B}[2J"))
    }
}
