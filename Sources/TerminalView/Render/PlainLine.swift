/// The one-line form of an element for output without a terminal:
/// `id: text` for labels and big text, `id: 42%` for progress,
/// `id: [label] enabled` or `id: [label] disabled` for buttons.
public enum PlainLine {
    public static func line(for element: Element) -> String {
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
