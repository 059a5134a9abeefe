import CountdownCore
import TerminalView

/// A script's view as JSON for the page (`/api/view`, the view's event stream):
///
///     {"event":"view","title":"…","paused":null,"error":null,"closed":false,
///      "elements":[{"id":"status","kind":"label","text":"Resend in 5s","style":{…}}, …]}
///
/// Each element carries its kind's fields: `text` and `style` (label, big),
/// `value` from 0 to 1 (progress), `label`, `key`, `enabled` and `style`
/// (button). A style is an object of flags (`bold`, `dim`, `italic`,
/// `underline`, `inverse`) and a `color` (one of the eight terminal colour
/// names, or null). Every string goes through `CountdownJSON.appendString`, so
/// controls, line separators and bidi overrides arrive escaped; the page shows
/// them with `textContent` only.
public enum ScriptViewJSON {
    public static func encode(_ state: ScriptViewState) -> String {
        var out = "{\"event\":\"view\",\"title\":"
        appendOptional(state.title, to: &out)
        out += ",\"paused\":"
        appendOptional(state.pauseNote, to: &out)
        out += ",\"error\":"
        appendOptional(state.errorNote, to: &out)
        out += ",\"closed\":" + (state.closed ? "true" : "false")
        out += ",\"elements\":["
        for (index, element) in state.elements.enumerated() {
            if index > 0 { out += "," }
            append(element, to: &out)
        }
        out += "]}"
        return out
    }

    static func append(_ element: Element, to out: inout String) {
        out += "{\"id\":"
        CountdownJSON.appendString(element.id, to: &out)
        out += ",\"kind\":\"" + element.kind.rawValue + "\""
        switch element.kind {
        case .label, .big:
            out += ",\"text\":"
            CountdownJSON.appendString(element.text, to: &out)
        case .progress:
            out += ",\"value\":" + CountdownJSON.number(element.value)
        case .button:
            out += ",\"label\":"
            CountdownJSON.appendString(element.label, to: &out)
            out += ",\"key\":"
            CountdownJSON.appendString(element.key, to: &out)
            out += ",\"enabled\":" + (element.enabled ? "true" : "false")
        }
        if element.kind != .progress {
            out += ",\"style\":"
            append(element.style, to: &out)
        }
        out += "}"
    }

    static func append(_ style: CellStyle, to out: inout String) {
        out += "{\"bold\":\(style.bold),\"dim\":\(style.dim),\"italic\":\(style.italic),\"underline\":\(style.underline),\"inverse\":\(style.inverse),\"color\":"
        if let colour = style.colour { out += "\"" + colour.name + "\"" } else { out += "null" }
        out += "}"
    }

    private static func appendOptional(_ text: String?, to out: inout String) {
        if let text { CountdownJSON.appendString(text, to: &out) } else { out += "null" }
    }
}
