/// An in-memory terminal of a fixed size that interprets the ANSI output the view
/// writes, so tests (and `cdscript test`) can read the screen a user would see.
///
/// It understands what the view emits: cursor positioning, erase, SGR, the
/// alternate screen, cursor visibility, window titles and the bell. Text is
/// placed as a terminal places it: by grapheme cluster, a wide one (`长`, `🍅`)
/// in two cells; writing over either half of a wide cluster blanks its other
/// half; a zero-width character joins the cell written last; text reaching the
/// right edge wraps to the next row (scrolling at the bottom), as with autowrap.
public final class VirtualTerminal: ViewSurface {
    public private(set) var size: TerminalSize
    /// The visible grid (the alternate screen while the view is open).
    public private(set) var screen: Screen
    private var mainScreen: Screen
    public private(set) var inAlternateScreen = false
    public private(set) var cursorVisible = true
    public private(set) var title = ""
    public private(set) var bells = 0
    /// Everything written, for tests that count bytes or look for sequences.
    public private(set) var output = ""
    /// Times `begin` and `end` ran.
    public private(set) var begun = 0
    public private(set) var ended = 0

    private var row = 0
    private var column = 0
    /// The last column was written: the next character wraps first (DEC autowrap).
    private var wrapPending = false
    /// The cell written last, which a zero-width character joins.
    private var lastWritten: (row: Int, column: Int)?
    private var pen = CellStyle.plain
    private var active = false

    public init(columns: Int = 80, rows: Int = 24) {
        size = TerminalSize(columns: columns, rows: rows)
        screen = Screen(size: size)
        mainScreen = screen
    }

    /// Changes the size, as a window resize does; the content is kept where it fits.
    public func resize(columns: Int, rows: Int) {
        let newSize = TerminalSize(columns: columns, rows: rows)
        func resized(_ old: Screen) -> Screen {
            var new = Screen(size: newSize)
            for r in 0..<min(old.size.rows, newSize.rows) {
                for c in 0..<min(old.size.columns, newSize.columns) { new[r, c] = old[r, c] }
                // A wide cluster cut by the new right edge goes.
                if newSize.columns > 0, new[r, newSize.columns - 1].isWide { new[r, newSize.columns - 1] = .blank }
            }
            return new
        }
        size = newSize
        screen = resized(screen)
        mainScreen = resized(mainScreen)
        row = min(row, max(0, rows - 1))
        column = min(column, max(0, columns - 1))
        lastWritten = nil
        wrapPending = false
    }

    /// The visible screen as text, one line per row, trailing blanks removed.
    public func screenText() -> String { screen.text }

    public func begin() {
        guard !active else { return }
        active = true
        begun += 1
        write(ANSI.pushTitle + ANSI.enterAlternateScreen + ANSI.hideCursor)
    }

    public func end() {
        guard active else { return }
        active = false
        ended += 1
        write(ANSI.reset + ANSI.showCursor + ANSI.leaveAlternateScreen + ANSI.popTitle)
    }

    public func write(_ text: String) {
        output += text
        var scalars = Array(text.unicodeScalars)[...]
        var printable = ""
        func flush() {
            guard !printable.isEmpty else { return }
            DisplayWidth.forEachCluster(printable) { cluster, width in put(cluster, width: width) }
            printable = ""
        }
        while let scalar = scalars.popFirst() {
            switch scalar {
            case "\u{1B}":
                flush()
                wrapPending = false
                escape(&scalars)
            case "\u{07}":
                flush()
                bells += 1
            case "\r":
                flush()
                column = 0
                wrapPending = false
            case "\n":
                flush()
                lineFeed()
            default:
                guard scalar.value >= 0x20, scalar.value != 0x7F else { continue }
                printable.unicodeScalars.append(scalar)
            }
        }
        flush()
    }

    /// Places one cluster at the cursor and moves past it.
    private func put(_ cluster: String, width: Int) {
        guard size.rows > 0, size.columns > 0 else { return }
        if width == 0 {
            if let (r, c) = lastWritten { screen[r, c].text += cluster }
            return
        }
        if wrapPending || column + width > size.columns {
            // Autowrap; a wide cluster that does not fit in the last column goes whole to the next row.
            if !wrapPending, column < size.columns { clearHalves(row: row, column: column, width: 1); screen[row, column] = .blank }
            column = 0
            wrapPending = false
            lineFeed()
        }
        guard width <= size.columns else { return }
        clearHalves(row: row, column: column, width: width)
        screen[row, column] = Cell(cluster: cluster, width: width, style: pen)
        if width == 2 { screen[row, column + 1] = .continuation(pen) }
        lastWritten = (row, column)
        column += width
        if column >= size.columns {
            column = size.columns - 1
            wrapPending = true
        }
    }

    /// Before writing `width` cells at (row, column): a wide cluster cut in half by
    /// the write loses its other half, as on a real terminal.
    private func clearHalves(row: Int, column: Int, width: Int) {
        if screen[row, column].isContinuation, column > 0 { screen[row, column - 1] = Cell(cluster: " ", width: 1, style: screen[row, column - 1].style) }
        let end = column + width - 1
        if screen[row, end].isWide, end + 1 < size.columns { screen[row, end + 1] = Cell(cluster: " ", width: 1, style: screen[row, end + 1].style) }
    }

    private func lineFeed() {
        if row + 1 < size.rows {
            row += 1
        } else if size.rows > 0 {
            // Scroll the screen up by one row.
            var scrolled = Screen(size: size)
            for r in 1..<size.rows { for c in 0..<size.columns { scrolled[r - 1, c] = screen[r, c] } }
            screen = scrolled
            lastWritten = nil
        }
    }

    private func escape(_ scalars: inout ArraySlice<Unicode.Scalar>) {
        guard let kind = scalars.popFirst() else { return }
        if kind == "]" {
            // OSC: up to BEL or ESC \.
            var body = ""
            while let s = scalars.popFirst() {
                if s == "\u{07}" { break }
                if s == "\u{1B}" { _ = scalars.popFirst(); break }
                body.unicodeScalars.append(s)
            }
            if body.hasPrefix("0;") || body.hasPrefix("2;") { title = String(body.dropFirst(2)) }
            return
        }
        guard kind == "[" else { return }
        var parameters = ""
        var final: Unicode.Scalar = "@"
        while let s = scalars.popFirst() {
            if s.value >= 0x40 && s.value <= 0x7E { final = s; break }
            parameters.unicodeScalars.append(s)
        }
        let numbers = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0.filter(\.isNumber)) }
        switch final {
        case "H", "f":
            lastWritten = nil
            row = min(max(1, (numbers.first ?? nil) ?? 1) - 1, max(0, size.rows - 1))
            column = min(max(1, (numbers.count > 1 ? numbers[1] : nil) ?? 1) - 1, max(0, size.columns - 1))
        case "J" where parameters == "2":
            screen = Screen(size: size)
        case "K":
            if row < size.rows, column < size.columns { clearHalves(row: row, column: column, width: 1) }
            for c in column..<max(column, size.columns) where row < size.rows { screen[row, c] = .blank }
        case "m":
            for n in numbers.map({ $0 ?? 0 }) {
                switch n {
                case 0: pen = .plain
                case 1: pen.bold = true
                case 2: pen.dim = true
                case 3: pen.italic = true
                case 4: pen.underline = true
                case 7: pen.inverse = true
                case 30...37: pen.colour = CellStyle.Colour(rawValue: UInt8(n - 30))
                case 39: pen.colour = nil
                default: break
                }
            }
        case "h", "l":
            let on = final == "h"
            if parameters == "?25" { cursorVisible = on }
            if parameters == "?1049", on != inAlternateScreen {
                inAlternateScreen = on
                if on {
                    mainScreen = screen
                    screen = Screen(size: size)
                } else {
                    screen = mainScreen
                }
            }
        default:
            break
        }
    }
}
