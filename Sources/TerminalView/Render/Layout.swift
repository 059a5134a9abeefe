/// Places the elements on a screen: top to bottom, each row centred, the whole
/// block centred vertically.
///
/// When the terminal is too small it degrades step by step: first the blank rows
/// between elements go, then big digits become one line of text, then elements
/// are left out, keeping the element that changes longest: big text, else a
/// label whose text has changed (one that ticks), else the first label. One row
/// shows that text alone. Rows wider than the terminal are cut with "…" at a
/// cluster boundary. Widths are display widths (`DisplayWidth`).
public struct Layout: Sendable {
    public var colours: Bool

    public init(colours: Bool = true) {
        self.colours = colours
    }

    public func compose(_ elements: [Element], size: TerminalSize) -> Screen {
        var screen = Screen(size: size)
        guard size.rows > 0, size.columns > 0, !elements.isEmpty else { return screen }
        func total(_ blocks: [[[Cell]]], gap: Int) -> Int {
            blocks.reduce(0) { $0 + $1.count } + gap * max(0, blocks.count - 1)
        }
        var gap = 1
        var blocks: [[[Cell]]]
        if let shown = Self.shownIndices(elements, size: size) {
            gap = 0
            blocks = shown.map { rows(for: elements[$0], width: size.columns, compact: true) }
        } else {
            blocks = elements.map { rows(for: $0, width: size.columns, compact: false) }
            if total(blocks, gap: gap) > size.rows { gap = 0 }
            if total(blocks, gap: gap) > size.rows {
                // Compact forms are one row each, and there are rows enough for that.
                blocks = elements.map { rows(for: $0, width: size.columns, compact: true) }
            }
        }
        var row = (size.rows - total(blocks, gap: gap)) / 2
        for block in blocks {
            let width = block.map(\.count).max() ?? 0
            for cells in block {
                draw(cells, blockWidth: width, row: row, on: &screen)
                row += 1
            }
            row += gap
        }
        return screen
    }

    /// With more elements than rows, the ones shown: the one that changes (big
    /// text, else a label that ticks, else the first label), then the others in
    /// order, as many as there are rows, listed in their own order. Nil when every
    /// element is shown. Work is in proportion to the rows while a big text or a
    /// ticking label comes early, so a list of thousands stays cheap.
    public static func shownIndices(_ elements: [Element], size: TerminalSize) -> [Int]? {
        guard elements.count > size.rows else { return nil }
        let first = elements.firstIndex { $0.kind == .big }
            ?? elements.firstIndex { $0.kind == .label && $0.changes }
            ?? elements.firstIndex { $0.kind == .label }
        var kept = Array(elements.indices.lazy.filter { $0 != first }.prefix(max(0, size.rows - (first == nil ? 0 : 1))))
        if let first, size.rows > 0 { kept.append(first); kept.sort() }
        return kept
    }

    private func draw(_ cells: [Cell], blockWidth: Int, row: Int, on screen: inout Screen) {
        let columns = screen.size.columns
        var cells = cells
        var left = (columns - blockWidth) / 2
        if blockWidth > columns {
            left = 0
            if cells.count > columns { cells = Self.cut(cells, toColumns: columns) }
        }
        for (i, cell) in cells.enumerated() where left + i < columns {
            screen[row, left + i] = colours ? cell : Cell(cluster: cell.text, width: cell.width, style: cell.style.withoutColour)
        }
    }

    /// A row cut to `columns` at a cluster boundary, never half a wide
    /// character, with "…" in the last column used (one column alone keeps its
    /// first cluster when that fits).
    static func cut(_ cells: [Cell], toColumns columns: Int) -> [Cell] {
        guard cells.count > columns, columns > 0 else { return cells }
        let room = columns >= 2 ? columns - 1 : columns
        var kept = Array(cells.prefix(room))
        // A wide cluster whose right half fell off goes whole.
        if let last = kept.last, last.isWide { kept.removeLast() }
        if columns >= 2 || kept.isEmpty {
            let style = kept.last?.style ?? cells[0].style
            kept.append(Cell(cluster: "…", width: 1, style: style))
        }
        return kept
    }

    /// Draws one line of text centred on `row` (cut with "…" when too wide).
    func place(_ text: String, style: CellStyle, row: Int, on screen: inout Screen) {
        let line = cells(text, style)
        draw(line, blockWidth: line.count, row: row, on: &screen)
    }

    /// The rows an element occupies.
    func rows(for element: Element, width: Int, compact: Bool) -> [[Cell]] {
        switch element.kind {
        case .label:
            return [cells(element.text, element.style)]
        case .big:
            var style = element.style
            style.bold = true
            if !compact, let glyphRows = BigFont.render(element.text), DisplayWidth.of(glyphRows.first ?? "") <= width {
                return glyphRows.map { cells($0, style) }
            }
            return [cells(element.text, style)]
        case .progress:
            return [progressBar(element.value, width: width)]
        case .button:
            var style = element.style
            if element.enabled {
                style.bold = true
                if style.colour == nil { style.colour = .green }
            } else {
                style = CellStyle(dim: true)
            }
            return [cells(Self.buttonText(element), style)]
        }
    }

    /// A button as drawn: its label and key in brackets.
    public static func buttonText(_ element: Element) -> String {
        "[ \(element.label) (\(Key.caption(element.key))) ]"
    }

    /// The percentage shown for a progress value, rounded down.
    public static func percent(_ value: Double) -> Int {
        Int((value * 100).rounded(.down))
    }

    private func progressBar(_ value: Double, width: Int) -> [Cell] {
        // Padded, so that the bar does not move when the number gets a digit.
        let percent = "\(Self.percent(value))%"
        let label = String(repeating: " ", count: max(1, 5 - percent.count)) + percent
        let barWidth = min(40, width - 5)
        guard barWidth >= 3 else { return cells(percent, .plain) }
        let filled = Int((value * Double(barWidth)).rounded(.down))
        return Array(repeating: Cell("█", style: CellStyle(colour: .green)), count: filled)
            + Array(repeating: Cell("░", style: CellStyle(dim: true)), count: barWidth - filled)
            + cells(label, .plain)
    }

    private func cells(_ text: String, _ style: CellStyle) -> [Cell] {
        Cell.cells(PlainLine.printable(text), style: style)
    }
}
