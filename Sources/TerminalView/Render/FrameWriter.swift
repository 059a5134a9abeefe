/// Turns the difference between what the terminal shows and the wanted screen
/// into ANSI output: cursor moves and the changed cells only, with SGR changes
/// where the style changes. A ticking label rewrites just its changed span.
/// The first frame, and the first after a resize, clears the screen once.
public struct FrameWriter: Sendable {
    /// What the terminal shows now, as far as this writer knows.
    public private(set) var shown: Screen?

    public init() {}

    /// Forgets what the terminal shows: the next frame clears and draws everything
    /// (after a resize, or after the program was suspended).
    public mutating func invalidate() { shown = nil }

    /// The bytes that change the terminal from what it shows to `screen`; empty
    /// when nothing changed.
    public mutating func frame(_ screen: Screen) -> String {
        var out = ""
        var pen: CellStyle? = nil
        let full = shown?.size != screen.size
        if full {
            out += "\u{1B}[0m\u{1B}[H\u{1B}[2J"
            pen = .plain
        }
        let previous = full ? Screen(size: screen.size) : shown!
        for row in 0..<screen.size.rows {
            guard var (first, last) = changedSpan(row, previous, screen) else { continue }
            // A wide cluster and its continuation are written together: start at
            // the cluster when only its right half changed.
            while first > 0, screen[row, first].isContinuation { first -= 1 }
            out += "\u{1B}[\(row + 1);\(first + 1)H"
            for column in first...last {
                let cell = screen[row, column]
                // The terminal moved past it with its wide cluster.
                if cell.isContinuation { continue }
                if cell.style != pen {
                    out += "\u{1B}[\(cell.style.sgrParameters)m"
                    pen = cell.style
                }
                out += cell.text
            }
        }
        if let current = pen, current != .plain { out += "\u{1B}[0m" }
        shown = screen
        return out
    }

    private func changedSpan(_ row: Int, _ old: Screen, _ new: Screen) -> (Int, Int)? {
        var first: Int?
        var last = 0
        for column in 0..<new.size.columns where old[row, column] != new[row, column] {
            if first == nil { first = column }
            last = column
        }
        return first.map { ($0, last) }
    }
}
