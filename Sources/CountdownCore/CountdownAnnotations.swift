/// What a stored countdown says about itself besides its time: a title to show
/// and the names of the actions to run at its end. Both stores keep them within
/// these limits, and every way in (`cdscript start`/`timer`, `countdown.start`)
/// refuses what lies outside them with the message below, before anything is stored.
///
/// Action names are names, never commands: a store may be shared (one Redis for
/// many machines), and whoever can write it must not be able to run a command on
/// every machine that runs its actions. What a name runs is configured there.
public enum CountdownAnnotations {
    /// The longest title, in characters (grapheme clusters).
    public static let longestTitle = 256
    /// The most actions one countdown may name.
    public static let mostActions = 16
    /// The longest action name, in bytes (names are ASCII).
    public static let longestActionName = 64
    /// How messages describe what an action name may be made of.
    public static let actionNameRule = "1 to \(longestActionName) of A-Z a-z 0-9 _ . -"

    /// Why `title` cannot be stored; nil when it can. A title is one line of
    /// text: no control characters (a newline, an escape sequence, NUL).
    public static func titleRefusal(_ title: String) -> String? {
        if title.count > longestTitle {
            return "a title is at most \(longestTitle) characters (this one has \(title.count))"
        }
        if title.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
            return "a title is one line of text, without control characters (newlines, tabs, escapes)"
        }
        return nil
    }

    /// Why `name` cannot be an action name; nil when it can.
    public static func actionNameRefusal(_ name: String) -> String? {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty, bytes.count <= longestActionName, bytes.allSatisfy(isNameByte) else {
            let shown = name.count > 70 ? String(name.prefix(70)) + "..." : name
            return "an action name is \(actionNameRule), not '\(VisibleText.escaped(shown))'"
        }
        return nil
    }

    /// Why `actions` cannot be stored together; nil when they can.
    public static func actionsRefusal(_ actions: [String]) -> String? {
        if actions.count > mostActions {
            return "a countdown names at most \(mostActions) actions (this one names \(actions.count))"
        }
        var seen = Set<String>()
        for name in actions {
            if let refusal = actionNameRefusal(name) { return refusal }
            if !seen.insert(name).inserted { return "the action '\(name)' is named twice" }
        }
        return nil
    }

    /// The stored form of `actions`: the names joined by commas ("" for none).
    /// A comma is in no name, so the text splits back into the same list.
    public static func encodeActions(_ actions: [String]) -> String {
        actions.joined(separator: ",")
    }

    /// The names in `text` (`encodeActions`'s form); "" is none.
    public static func decodeActions(_ text: String) -> [String] {
        text.isEmpty ? [] : text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }

    private static func isNameByte(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }
}
