/// What a click from the page may press: a key name as the view binds it.
public enum ScriptViewKey {
    /// True for a canonical key name: not empty, under 64 bytes, no control
    /// character (so it travels as one line and cannot forge another).
    public static func canBeKey(_ key: String) -> Bool {
        !key.isEmpty && key.utf8.count < 64 && !key.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F })
    }
}
