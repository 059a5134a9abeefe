import CountdownCore
import FoundationEssentials

/// One click that i3bar (or swaybar) reports on the status command's standard
/// input, once the header asked for them (`click_events`): the block's `name`
/// and `instance` as the bar got them, and the mouse button (1 is the left one).
struct BarClick: Equatable {
    let name: String?
    let instance: String?
    let button: Int
}

/// Reads i3bar's click events as they arrive, in pieces of any size: an
/// infinite JSON array, `[` and then one object per click, the objects
/// separated by commas (i3bar writes each on its own line, with the comma
/// before every one but the first). The array never closes.
///
/// Nothing in the stream may stop the bar: an element that is not a click
/// object is skipped (up to the end of its line: i3bar writes one click a line)
/// and reported as `malformed`, once; the reader then goes on with what follows.
struct BarClickStream {
    enum Event: Equatable {
        case click(BarClick)
        /// What was skipped, for the message (shortened).
        case malformed(String)
    }

    /// The longest element kept while waiting for its end: a click is about 150
    /// bytes, so more than this is no click, and the memory stays bounded.
    static let longestElement = 64 * 1024

    private var pending: [UInt8] = []
    private var opened = false

    /// The clicks (and malformed elements) that `bytes` completes.
    mutating func feed(_ bytes: some Sequence<UInt8>) -> [Event] {
        pending.append(contentsOf: bytes)
        var events: [Event] = []
        var start = 0
        defer { pending.removeFirst(start) }
        while start < pending.count {
            let byte = pending[start]
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                start += 1
            case UInt8(ascii: "[") where !opened:
                opened = true
                start += 1
            case UInt8(ascii: ","):
                start += 1
            case UInt8(ascii: "{"):
                switch Self.objectEnd(in: pending, from: start) {
                case .complete(let end):
                    events.append(Self.event(pending[start..<end]))
                    start = end
                case .broken(let newline):
                    events.append(.malformed(Self.excerpt(pending[start..<newline])))
                    start = newline + 1
                case .incomplete:
                    // Not complete yet: wait for the rest, within bounds.
                    if pending.count - start > Self.longestElement {
                        events.append(.malformed(Self.excerpt(pending[start...])))
                        start = pending.count
                    }
                    return events
                }
            default:
                // Anything else cannot begin a click: skip its line.
                guard let newline = pending[start...].firstIndex(of: UInt8(ascii: "\n")) else {
                    if pending.count - start > Self.longestElement {
                        events.append(.malformed(Self.excerpt(pending[start...])))
                        start = pending.count
                    }
                    return events
                }
                events.append(.malformed(Self.excerpt(pending[start..<newline])))
                start = newline + 1
            }
        }
        return events
    }

    /// At the end of the input: what was left unfinished, if anything.
    mutating func finish() -> [Event] {
        let rest = pending.drop(while: { [UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t")].contains($0) })
        pending = []
        return rest.isEmpty ? [] : [.malformed(Self.excerpt(rest))]
    }

    private enum ObjectEnd {
        /// Just past the `}` that closes it.
        case complete(Int)
        /// A line ended first, at this index: i3bar writes a click on one line,
        /// so this is no click, and the next line starts afresh.
        case broken(Int)
        case incomplete
    }

    /// Where the object opening at `start` ends, skipping braces inside strings.
    private static func objectEnd(in bytes: [UInt8], from start: Int) -> ObjectEnd {
        var depth = 0
        var inString = false
        var escaped = false
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: "\n") { return .broken(index - 1) }
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"): depth += 1
            case UInt8(ascii: "}"):
                depth -= 1
                if depth == 0 { return .complete(index) }
            default: break
            }
        }
        return .incomplete
    }

    private static func event(_ object: ArraySlice<UInt8>) -> Event {
        guard let parsed = try? JSONDecoder().decode(ClickFields.self, from: Data(object)),
              let button = parsed.button.flatMap({ Int(exactly: $0) }) else {
            return .malformed(excerpt(object))
        }
        return .click(BarClick(name: parsed.name, instance: parsed.instance, button: button))
    }

    /// The fields of a click object that matter (i3bar sends more: x, y,
    /// modifiers...). A name or instance that is not a string reads as absent;
    /// a button must be a whole number (`1` or `1.0`), else the element is malformed.
    private struct ClickFields: Decodable {
        let name: String?
        let instance: String?
        let button: Double?

        enum Key: String, CodingKey { case name, instance, button }

        init(from decoder: any Decoder) throws {
            let fields = try decoder.container(keyedBy: Key.self)
            name = try? fields.decodeIfPresent(String.self, forKey: .name)
            instance = try? fields.decodeIfPresent(String.self, forKey: .instance)
            button = try? fields.decodeIfPresent(Double.self, forKey: .button)
        }
    }

    /// At most 80 characters of what was skipped, controls escaped, for one line on stderr.
    private static func excerpt(_ bytes: ArraySlice<UInt8>) -> String {
        let text = String(decoding: bytes.prefix(80), as: UTF8.self)
        return VisibleText.escaped(text) + (bytes.count > 80 ? "..." : "")
    }
}
