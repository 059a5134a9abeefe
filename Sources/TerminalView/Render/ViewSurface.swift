/// Where a full-screen view is drawn: a real terminal (`TerminalSession`) or an
/// in-memory one (`VirtualTerminal`).
public protocol ViewSurface: AnyObject {
    /// Columns and rows now.
    var size: TerminalSize { get }
    /// Takes over the display: alternate screen, hidden cursor, raw keys.
    /// Called once, when the view opens.
    func begin()
    /// Writes ANSI output.
    func write(_ text: String)
    /// Gives the display back as it was. Safe to call more than once.
    func end()
}

/// Control sequences the view writes.
public enum ANSI {
    public static let enterAlternateScreen = "\u{1B}[?1049h"
    public static let leaveAlternateScreen = "\u{1B}[?1049l"
    public static let hideCursor = "\u{1B}[?25l"
    public static let showCursor = "\u{1B}[?25h"
    public static let reset = "\u{1B}[0m"
    public static let bell = "\u{07}"
    /// Saves the window title (xterm's title stack), so that `end` can put it back.
    public static let pushTitle = "\u{1B}[22;0t"
    public static let popTitle = "\u{1B}[23;0t"

    public static func title(_ text: String) -> String {
        // Control characters would end or break the sequence: C0, DEL, and C1
        // (U+009C is xterm's string terminator). The host escapes a script's
        // title before it gets here (VisibleText); this is the last guard.
        let clean = String(text.unicodeScalars.filter { $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) }.map(Character.init))
        return "\u{1B}]0;\(clean)\u{07}"
    }
}
