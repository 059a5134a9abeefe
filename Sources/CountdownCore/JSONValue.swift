/// A JSON document built in code, written as Foundation's `JSONSerialization`
/// writes it with `.sortedKeys` and `.withoutEscapingSlashes` (and
/// `.prettyPrinted` when asked): the test report (`cdscript test -o json`), a
/// status bar's blocks and `cdscript new`'s `.luarc.json` keep their bytes
/// without `JSONSerialization`, which is not in `FoundationEssentials` and
/// would link ICU's 34 MB of data.
///
/// Keys are sorted by their Unicode scalars; `JSONSerialization` compares them
/// case-insensitively and numerically, which gives the same order for the keys
/// cdscript writes (lower-case words, `_`, `.`, `$`).
public indirect enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The document on one line, or pretty-printed (two blanks an indent,
    /// `"key" : value`) as `JSONSerialization`'s `.prettyPrinted` lays it out.
    public func text(pretty: Bool = false) -> String {
        var out = ""
        write(to: &out, pretty: pretty, depth: 0)
        return out
    }

    private func write(to out: inout String, pretty: Bool, depth: Int) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .int(let value): out += String(value)
        case .number(let value): out += CountdownJSON.number(value)
        case .string(let value): Self.appendString(value, to: &out)
        case .array(let elements):
            out += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { out += "," }
                Self.newline(&out, pretty: pretty, depth: depth + 1)
                element.write(to: &out, pretty: pretty, depth: depth + 1)
            }
            // Pretty-printed, an empty array is "[", a blank line, and "]".
            if pretty && elements.isEmpty { out += "\n" }
            Self.newline(&out, pretty: pretty, depth: depth)
            out += "]"
        case .object(let members):
            out += "{"
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { out += "," }
                Self.newline(&out, pretty: pretty, depth: depth + 1)
                Self.appendString(key, to: &out)
                out += pretty ? " : " : ":"
                members[key]!.write(to: &out, pretty: pretty, depth: depth + 1)
            }
            if pretty && members.isEmpty { out += "\n" }
            Self.newline(&out, pretty: pretty, depth: depth)
            out += "}"
        }
    }

    /// Pretty output's line break and indent; nothing on one line.
    private static func newline(_ out: inout String, pretty: Bool, depth: Int) {
        guard pretty else { return }
        out += "\n"
        out += String(repeating: "  ", count: depth)
    }

    /// A JSON string with `JSONSerialization`'s escapes: the quote, the backslash,
    /// `\b \f \n \r \t`, other C0 controls as `\u00xx` (lower-case hex); slashes
    /// and everything from U+007F up as they are.
    static func appendString(_ text: String, to out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                out += scalar.value < 0x10 ? "\\u000" : "\\u00"
                out += String(scalar.value, radix: 16)
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
