/// Turns raw terminal input into key names (see `Key`): printable characters,
/// Enter, Tab, Backspace, Escape, arrows, and Ctrl-C as `"ctrl-c"`.
/// Other control bytes and unknown escape sequences are dropped.
public enum KeyDecoder {
    public static func keys(_ bytes: [UInt8]) -> [String] {
        var keys: [String] = []
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            switch byte {
            case 0x1B:
                if i + 2 < bytes.count, bytes[i + 1] == UInt8(ascii: "[") || bytes[i + 1] == UInt8(ascii: "O") {
                    // CSI or SS3: parameters, then a final byte.
                    var j = i + 2
                    while j < bytes.count, !(0x40...0x7E).contains(bytes[j]) { j += 1 }
                    if j < bytes.count {
                        switch bytes[j] {
                        case UInt8(ascii: "A"): keys.append("up")
                        case UInt8(ascii: "B"): keys.append("down")
                        case UInt8(ascii: "C"): keys.append("right")
                        case UInt8(ascii: "D"): keys.append("left")
                        default: break
                        }
                    }
                    i = j + 1
                    continue
                }
                keys.append("escape")
            case 0x03: keys.append("ctrl-c")
            case 0x0D, 0x0A: keys.append("enter")
            case 0x09: keys.append("tab")
            case 0x7F, 0x08: keys.append("backspace")
            case 0x20: keys.append("space")
            case 0x21...0x7E: keys.append(String(UnicodeScalar(byte)))
            case 0xC0...0xF7:
                // One UTF-8 character.
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
                if i + length <= bytes.count {
                    keys.append(String(decoding: bytes[i..<(i + length)], as: UTF8.self))
                }
                i += length
                continue
            default: break
            }
            i += 1
        }
        return keys
    }

    /// A line of plain-mode input as a key: `r`, `space` (or a lone blank), `enter`...
    /// Nil for an empty line or text that is not a key.
    public static func key(line: String) -> String? {
        var text = line
        if text.hasSuffix("\r") { text.removeLast() }
        if text == " " { return "space" }
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty else { return nil }
        return try? Key.normalize(trimmed)
    }
}

extension String {
    func trimmingWhitespace() -> String {
        var s = Substring(self)
        while s.first?.isWhitespace == true { s.removeFirst() }
        while s.last?.isWhitespace == true { s.removeLast() }
        return String(s)
    }
}

/// Splits bytes read in chunks into lines.
public struct LineSplitter: Sendable {
    private var pending: [UInt8] = []
    public init() {}

    /// The complete lines in `bytes` plus what came before.
    public mutating func feed(_ bytes: [UInt8]) -> [String] {
        pending += bytes
        var lines: [String] = []
        while let newline = pending.firstIndex(of: 0x0A) {
            lines.append(String(decoding: pending[..<newline], as: UTF8.self))
            pending.removeSubrange(...newline)
        }
        return lines
    }

    /// The last line when input ended without a newline.
    public mutating func finish() -> String? {
        defer { pending = [] }
        return pending.isEmpty ? nil : String(decoding: pending, as: UTF8.self)
    }
}
