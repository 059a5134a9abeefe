/// One state of a script's view, as it crosses from the thread that owns the
/// script to the server: the JSON the page gets, and the keys a click may
/// press (enabled or not), so that the server can answer a click at once.
/// A value: nothing in it is shared with the thread that made it.
///
/// Between processes (`run --serve` and its `cdscript-serve`), a frame travels
/// as its JSON alone, one line (`ScriptViewJSON` escapes every newline); the
/// server reads the button keys back out of it.
public struct ScriptViewFrame: Sendable, Equatable {
    public let json: String
    public let buttonKeys: [String: Bool]

    public init(_ state: ScriptViewState) {
        json = ScriptViewJSON.encode(state)
        buttonKeys = state.buttonKeys
    }

    /// A frame as the server rebuilds it from a line: `json` and the keys read out of it.
    public init(json: String, buttonKeys: [String: Bool]) {
        self.json = json
        self.buttonKeys = buttonKeys
    }
}
