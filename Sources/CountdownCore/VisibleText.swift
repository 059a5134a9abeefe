/// Text from scripts or the store made safe to show on a terminal: control
/// characters (C0, DEL, C1) are written as escapes, so an id holding `ESC [2J`
/// cannot clear the user's screen and a newline cannot break a table.
public enum VisibleText {
    public static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A: out += "\\n"
            case 0x09: out += "\\t"
            case 0x0D: out += "\\r"
            case 0x5C: out += "\\\\"
            case 0x00..<0x20, 0x7F:
                out += "\\x" + hex(scalar.value, width: 2)
            case 0x80..<0xA0:
                out += "\\u{" + hex(scalar.value, width: 2) + "}"
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
