/// The one-line form of an element for output without a terminal:
/// `id: text` for labels and big text, `id: 42%` for progress,
/// `id: [label] enabled` or `id: [label] disabled` for buttons.
public enum PlainLine {
    public static func line(for element: Element) -> String {
        printable(rawLine(for: element))
    }

    /// `text` with control characters (newlines, tabs, escapes, C1 controls)
    /// turned into blanks: a script's text can neither break a line nor send a
    /// sequence to the terminal. So are line and paragraph separators and the
    /// bidi embeddings, overrides and isolates, which would reorder what follows
    /// them on a terminal that does bidi (the marks LRM, RLM and ALM stay).
    /// The full-screen view draws all its text through this too.
    public static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map { isControl($0) ? " " : $0 }))
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
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
