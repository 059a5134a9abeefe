import CountdownCore

// What `cdscript watch` shows of a large store: the ids that match a pattern
// (`WatchFilter`), a page at a time in the terminal (`WatchPage`).

/// Which ids a watch shows.
public struct WatchFilter {
    public let pattern: IDPattern?

    /// Shows the ids `pattern` matches whole, or every id when it is nil.
    public init(pattern: IDPattern?) { self.pattern = pattern }

    /// True when `id` is shown: no pattern, or the pattern matches the whole id
    /// (`IDPattern`: `cancel --match` reads patterns the same way).
    public func matches(_ id: String) -> Bool {
        pattern?.matches(id) ?? true
    }
}

/// The rows of the terminal view a watch fills, and which ones: `top` is the
/// index (in id order) of the first one shown. Keys: up/down (or k/j) move by
/// a row, left/right (or h/l, p/n, b) by a page, g and G to the first and the last.
public struct WatchPage: Equatable {
    /// Index of the first row shown.
    private(set) var top = 0
    /// Rows shown at most (the terminal's height less the header and the status line).
    private(set) var rows = 1

    /// The keys that move the page, as the status line names them.
    public static let keysHelp = "↑↓ row  ←→ page  g G first/last"

    /// Lines of the terminal not given to rows: the header and the status line under it.
    static let chromeRows = 2

    /// Sets how many rows fit, from the terminal's height; keeps `top` in range.
    mutating func fit(terminalRows: Int, count: Int) {
        rows = max(1, terminalRows - Self.chromeRows)
        clamp(count: count)
    }

    /// The indices shown of `count` rows.
    func shown(count: Int) -> Range<Int> {
        let start = min(top, max(0, count - 1))
        return start..<min(count, start + rows)
    }

    /// True when some rows are not shown.
    func pages(count: Int) -> Bool { count > rows }

    /// Moves for a key; returns false when the key is not a paging key.
    mutating func press(_ key: String, count: Int) -> Bool {
        switch key {
        case "down", "j": top += 1
        case "up", "k": top -= 1
        case "right", "n", "l": top += rows
        case "left", "p", "h", "b": top -= rows
        case "g": top = 0
        case "G": top = count
        default: return false
        }
        clamp(count: count)
        return true
    }

    /// Keeps the page full where it can be: the last page ends at the last row.
    mutating func clamp(count: Int) {
        top = max(0, min(top, count - rows))
    }

    /// The line under the header: how many are shown, and when they do not all
    /// fit, which rows and the keys that move the page.
    func status(count: Int, filter: WatchFilter) -> String {
        let matching = filter.pattern.map { " matching \($0.text)" } ?? ""
        guard pages(count: count) else { return "\(count) countdown\(count == 1 ? "" : "s")\(matching)" }
        let range = shown(count: count)
        return "\(range.lowerBound + 1)-\(range.upperBound) of \(count)\(matching)   \(Self.keysHelp)"
    }
}
