/// The one-line form of an element for output without a terminal:
/// `id: text` for labels and big text, `id: 42%` for progress,
/// `id: [label] enabled` or `id: [label] disabled` for buttons.
public enum PlainLine {
    public static func line(for element: Element) -> String {
        printable(rawLine(for: element))
    }

    /// `text` with control characters (newlines, tabs, escapes) turned into
    /// blanks: a script's text can neither break a line nor send a sequence to
    /// the terminal.
    public static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map { isControl($0) ? " " : $0 }))
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    private static func rawLine(for element: Element) -> String {
        switch element.kind {
        case .label, .big:
            "\(element.id): \(element.text)"
        case .progress:
            "\(element.id): \(Layout.percent(element.value))%"
        case .button:
            "\(element.id): [\(element.label)] \(element.enabled ? "enabled" : "disabled")"
        }
    }
}
