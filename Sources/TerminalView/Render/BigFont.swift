/// Large block characters, five rows high, for the main countdown: digits and the
/// separators of times like `1d 02:03:04.5`, `+` for time past the end, and
/// capital letters for a message at the end (`cdscript timer --text`); a small
/// letter without a glyph of its own is drawn as its capital.
public enum BigFont {
    public static let height = 5
    /// Columns between two glyphs.
    static let gap = 1

    static let glyphs: [Character: [String]] = [
        "0": ["███", "█ █", "█ █", "█ █", "███"],
        "1": [" █ ", "██ ", " █ ", " █ ", "███"],
        "2": ["███", "  █", "███", "█  ", "███"],
        "3": ["███", "  █", "███", "  █", "███"],
        "4": ["█ █", "█ █", "███", "  █", "  █"],
        "5": ["███", "█  ", "███", "  █", "███"],
        "6": ["███", "█  ", "███", "█ █", "███"],
        "7": ["███", "  █", "  █", "  █", "  █"],
        "8": ["███", "█ █", "███", "█ █", "███"],
        "9": ["███", "█ █", "███", "  █", "███"],
        ":": [" ", "█", " ", "█", " "],
        ".": [" ", " ", " ", " ", "█"],
        ",": [" ", " ", " ", " ", "█"],
        "-": ["   ", "   ", "███", "   ", "   "],
        " ": [" ", " ", " ", " ", " "],
        "d": ["  █", "  █", "███", "█ █", "███"],
        "h": ["█  ", "█  ", "███", "█ █", "█ █"],
        "m": ["     ", "     ", "█████", "█ █ █", "█ █ █"],
        "s": ["   ", "███", "█  ", "  █", "███"],
        "+": ["   ", " █ ", "███", " █ ", "   "],
        "!": ["█", "█", "█", " ", "█"],
        "?": ["███", "  █", " ██", "   ", " █ "],
        "'": ["█", "█", " ", " ", " "],
        "A": ["███", "█ █", "███", "█ █", "█ █"],
        "B": ["██ ", "█ █", "██ ", "█ █", "██ "],
        "C": ["███", "█  ", "█  ", "█  ", "███"],
        "D": ["██ ", "█ █", "█ █", "█ █", "██ "],
        "E": ["███", "█  ", "██ ", "█  ", "███"],
        "F": ["███", "█  ", "██ ", "█  ", "█  "],
        "G": ["███", "█  ", "█ █", "█ █", "███"],
        "H": ["█ █", "█ █", "███", "█ █", "█ █"],
        "I": ["███", " █ ", " █ ", " █ ", "███"],
        "J": ["  █", "  █", "  █", "█ █", "███"],
        "K": ["█ █", "█ █", "██ ", "█ █", "█ █"],
        "L": ["█  ", "█  ", "█  ", "█  ", "███"],
        "M": ["█   █", "██ ██", "█ █ █", "█   █", "█   █"],
        "N": ["█  █", "██ █", "█ ██", "█  █", "█  █"],
        "O": ["███", "█ █", "█ █", "█ █", "███"],
        "P": ["███", "█ █", "███", "█  ", "█  "],
        "Q": ["███", "█ █", "█ █", "███", "  █"],
        "R": ["██ ", "█ █", "██ ", "█ █", "█ █"],
        "S": ["███", "█  ", "███", "  █", "███"],
        "T": ["███", " █ ", " █ ", " █ ", " █ "],
        "U": ["█ █", "█ █", "█ █", "█ █", "███"],
        "V": ["█ █", "█ █", "█ █", "█ █", " █ "],
        "W": ["█   █", "█   █", "█ █ █", "██ ██", "█   █"],
        "X": ["█ █", "█ █", " █ ", "█ █", "█ █"],
        "Y": ["█ █", "█ █", " █ ", " █ ", " █ "],
        "Z": ["███", "  █", " █ ", "█  ", "███"],
    ]

    /// The glyph of `character`: its own, else its capital's.
    static func glyph(_ character: Character) -> [String]? {
        if let glyph = glyphs[character] { return glyph }
        let upper = character.uppercased()
        return upper.count == 1 ? glyphs[Character(upper)] : nil
    }

    /// The rows of `text` in block characters, or nil when a character has no glyph.
    public static func render(_ text: String) -> [String]? {
        var rows = Array(repeating: "", count: height)
        for (i, character) in text.enumerated() {
            guard let glyph = glyph(character) else { return nil }
            for r in 0..<height {
                if i > 0 { rows[r] += String(repeating: " ", count: gap) }
                rows[r] += glyph[r]
            }
        }
        return rows
    }

    /// The width of `text` in block characters, or nil when it cannot be drawn.
    public static func width(_ text: String) -> Int? {
        var total = 0
        for (i, character) in text.enumerated() {
            guard let glyph = glyph(character) else { return nil }
            total += glyph[0].count + (i > 0 ? gap : 0)
        }
        return total
    }
}
