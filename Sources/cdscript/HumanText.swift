/// Text for people: ids and other stored strings may hold control characters
/// (an id is any Lua string), which must never reach a terminal raw.
enum HumanText {
    /// `text` with control characters (C0, DEL, C1) written as `\n`, `\t`, `\u{1b}`, ...
    /// and backslashes doubled, so what is printed is unambiguous and inert.
    static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
                out += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
