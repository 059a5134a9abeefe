/// How one cell is drawn: SGR attributes and an optional foreground colour.
public struct CellStyle: Hashable, Sendable {
    /// The eight standard ANSI colours, numbered as in SGR 30-37.
    public enum Colour: UInt8, Sendable, CaseIterable {
        case black = 0, red, green, yellow, blue, magenta, cyan, white

        public var name: String { String(describing: self) }
    }

    public var bold = false
    public var dim = false
    public var italic = false
    public var underline = false
    public var inverse = false
    public var colour: Colour?

    public init(bold: Bool = false, dim: Bool = false, italic: Bool = false, underline: Bool = false,
                inverse: Bool = false, colour: Colour? = nil) {
        self.bold = bold
        self.dim = dim
        self.italic = italic
        self.underline = underline
        self.inverse = inverse
        self.colour = colour
    }

    public static let plain = CellStyle()

    /// The same style without its colour (NO_COLOR, `--no-color`).
    public var withoutColour: CellStyle {
        var copy = self
        copy.colour = nil
        return copy
    }

    /// Reads a label's `style` field: words separated by spaces, such as
    /// `"bold red"`. An unknown word is an error that names it.
    public static func parse(_ text: String) throws(ViewError) -> CellStyle {
        var style = CellStyle()
        for word in text.split(whereSeparator: { $0 == " " || $0 == "," }) {
            switch word.lowercased() {
            case "bold": style.bold = true
            case "dim": style.dim = true
            case "italic": style.italic = true
            case "underline": style.underline = true
            case "inverse", "reverse": style.inverse = true
            case "normal", "plain": break
            case let name:
                guard let colour = Colour.allCases.first(where: { $0.name == name }) else {
                    let known = ["bold", "dim", "italic", "underline", "inverse"] + Colour.allCases.map(\.name)
                    throw ViewError("unknown style '\(word)' (known: \(known.joined(separator: ", ")))")
                }
                if let earlier = style.colour, earlier != colour {
                    throw ViewError("style '\(text)' has two colours, '\(earlier.name)' and '\(colour.name)': give one")
                }
                style.colour = colour
            }
        }
        return style
    }

    /// The SGR parameters that draw this style after a reset (`0` first).
    var sgrParameters: String {
        var parts = ["0"]
        if bold { parts.append("1") }
        if dim { parts.append("2") }
        if italic { parts.append("3") }
        if underline { parts.append("4") }
        if inverse { parts.append("7") }
        if let colour { parts.append(String(30 + Int(colour.rawValue))) }
        return parts.joined(separator: ";")
    }
}
