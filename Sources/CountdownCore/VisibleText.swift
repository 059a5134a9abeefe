/// Text from scripts or stores (countdown ids above all) made safe to print for
/// a person: control characters cannot clear the screen, move the cursor or
/// break a line, and an id that holds one is shown so that it can be seen.
///
/// `escaped` writes C-style escapes: `\n`, `\r`, `\t`, `\e` (ESC), `\\` for a
/// backslash (so the output is unambiguous), and `\x1f`-style hex for other C0
/// controls and DEL; C1 controls, line/paragraph separators and bidirectional
/// overrides become `\u{202e}`. Everything else is unchanged. JSON output does
/// not use this: JSON has its own escapes (see `jsonEscapingControls`).
///
/// This is the one escaping for text from a script, a plugin or a store that
/// goes to a terminal: ids in messages and lists, window titles, plugin
/// listings and warnings, test reports, shell completions.
public enum VisibleText {
    public static func escaped(_ text: String) -> String {
        escape(text, keeping: { _ in false })
    }

    /// `text` for a report of several lines (`cdscript test`'s): escaped as
    /// `escaped` does, except newlines and tabs, which lay the report out, and
    /// backslashes, which a person reading a message expects as they were.
    public static func escapedKeepingLayout(_ text: String) -> String {
        escape(text, keeping: { $0 == "\n" || $0 == "\t" || $0 == "\\" })
    }

    /// True when `text` holds a character `escaped` would write as an escape,
    /// other than a backslash: text that must not reach a terminal as it is.
    public static func hasControls(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0 != "\\" && needsEscape($0) }
    }

    /// A JSON text with DEL, C1 controls, line separators and bidi overrides
    /// written as `\u009b`-style escapes, which JSON encoders leave raw (they
    /// escape only C0). The same JSON to a parser; nothing a terminal acts on.
    public static func jsonEscapingControls(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: { $0.value >= 0x7F && needsEscape($0) }) else { return json }
        var out = ""
        for scalar in json.unicodeScalars {
            if scalar.value >= 0x7F && needsEscape(scalar) {
                out += "\\u" + hex(scalar.value, digits: 4)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func escape(_ text: String, keeping kept: (Unicode.Scalar) -> Bool) -> String {
        guard text.unicodeScalars.contains(where: { needsEscape($0) && !kept($0) }) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar), !kept(scalar) else {
                out.unicodeScalars.append(scalar)
                continue
            }
            switch scalar.value {
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x1B: out += "\\e"
            case 0x5C: out += "\\\\"
            case 0..<0x20, 0x7F: out += "\\x" + hex(scalar.value, digits: 2)
            default: out += "\\u{" + hex(scalar.value, digits: 4) + "}"
            }
        }
        return out
    }

    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x5C, 0x7F...0x9F: true
        case 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: true
        default: false
        }
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
