/// The size of a terminal in character cells.
public struct TerminalSize: Hashable, Sendable {
    public var columns: Int
    public var rows: Int
    public init(columns: Int, rows: Int) {
        self.columns = max(0, columns)
        self.rows = max(0, rows)
    }
}

/// One character cell.
public struct Cell: Hashable, Sendable {
    public var character: Character
    public var style: CellStyle
    public init(_ character: Character = " ", style: CellStyle = .plain) {
        self.character = character
        self.style = style
    }
    public static let blank = Cell()
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

    /// Writes `text` from (row, column), clipped at the right edge and ignored
    /// outside the grid.
    mutating func put(_ text: some Sequence<Character>, row: Int, column: Int, style: CellStyle) {
        guard row >= 0, row < size.rows else { return }
        var x = column
        for character in text {
            if x >= size.columns { break }
            if x >= 0 { self[row, x] = Cell(character, style: style) }
            x += 1
        }
    }

    /// One row as text, trailing blanks removed.
    public func line(_ row: Int) -> String {
        var characters = (0..<size.columns).map { self[row, $0].character }
        while characters.last == " " { characters.removeLast() }
        return String(characters)
    }

    /// The screen as text: one line per row, trailing blanks removed.
    public var text: String {
        (0..<size.rows).map(line).joined(separator: "\n")
    }
}
