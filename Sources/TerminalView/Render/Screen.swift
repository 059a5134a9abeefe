/// The size of a terminal in character cells.
public struct TerminalSize: Hashable, Sendable {
    public var columns: Int
    public var rows: Int
    public init(columns: Int, rows: Int) {
        self.columns = max(0, columns)
        self.rows = max(0, rows)
    }
}

/// One character cell, as a terminal has them: a grapheme cluster one or two
/// columns wide. A wide cluster (`长`, `🍅`) fills its own cell and the next,
/// which holds a *continuation* (no text, width 0) in the same style.
public struct Cell: Hashable, Sendable {
    /// The grapheme cluster drawn here; "" in the continuation of a wide one.
    public var text: String
    public var style: CellStyle
    /// Columns the cluster takes: 1 or 2; 0 for a continuation cell.
    public var width: Int

    public init(_ character: Character = " ", style: CellStyle = .plain) {
        self.init(cluster: String(character), width: max(1, DisplayWidth.of(String(character))), style: style)
    }

    public init(cluster: String, width: Int, style: CellStyle = .plain) {
        self.text = cluster
        self.width = width
        self.style = style
    }

    /// The right half of a wide cluster.
    public static func continuation(_ style: CellStyle) -> Cell { Cell(cluster: "", width: 0, style: style) }

    public var isContinuation: Bool { width == 0 }
    public var isWide: Bool { width == 2 }

    public static let blank = Cell(cluster: " ", width: 1)

    /// The cells `text` fills: one per cluster, two for a wide one. Zero-width
    /// clusters join the cluster before them (and are dropped at the start).
    public static func cells(_ text: String, style: CellStyle) -> [Cell] {
        var cells: [Cell] = []
        for (cluster, width) in DisplayWidth.clusters(text) {
            if width == 0 {
                if let last = cells.lastIndex(where: { !$0.isContinuation }) { cells[last].text += cluster }
                continue
            }
            cells.append(Cell(cluster: cluster, width: width, style: style))
            if width == 2 { cells.append(.continuation(style)) }
        }
        return cells
    }
}

/// A grid of cells: what the view wants the terminal to show.
public struct Screen: Equatable, Sendable {
    public let size: TerminalSize
    public private(set) var cells: [Cell]

    public init(size: TerminalSize) {
        self.size = size
        self.cells = Array(repeating: .blank, count: size.columns * size.rows)
    }

    public subscript(row: Int, column: Int) -> Cell {
        get { cells[row * size.columns + column] }
        set { cells[row * size.columns + column] = newValue }
    }

    /// One row as text (a wide cluster once), trailing blanks removed.
    public func line(_ row: Int) -> String {
        var text = ""
        for column in 0..<size.columns { text += self[row, column].text }
        while text.last == " " { text.removeLast() }
        return text
    }

    /// The screen as text: one line per row, trailing blanks removed.
    public var text: String {
        (0..<size.rows).map(line).joined(separator: "\n")
    }
}
