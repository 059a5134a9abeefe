/// Key names as scripts write them and as the terminal input is decoded to.
///
/// A key is one printable character (`"r"`, `"R"`, `"+"`) or one of the names in
/// `named`. `" "` is the same key as `"space"`.
public enum Key {
    /// Named keys, lower case.
    public static let named: Set<String> = [
        "space", "enter", "tab", "backspace", "escape", "up", "down", "left", "right",
    ]
    /// Keys the view keeps for itself: `q` quits (Ctrl-C too, as a signal).
    public static let quit = "q"
    /// Pauses and resumes all countdowns unless a button binds it.
    public static let pause = "space"

    /// The canonical name of `text`, or an error naming what is wrong with it.
    public static func normalize(_ text: String) throws(ViewError) -> String {
        if text == " " { return "space" }
        if text.count == 1, let scalar = text.unicodeScalars.first, scalar.value >= 0x21, scalar.value != 0x7f {
            return text
        }
        let lower = text.lowercased()
        if named.contains(lower) { return lower }
        if lower == "esc" { return "escape" }
        if lower == "return" { return "enter" }
        throw ViewError("key '\(text)' is not a key: use one character or one of \(named.sorted().joined(separator: ", "))")
    }

    /// How a button shows its key.
    static func caption(_ key: String) -> String { key }
}
