/// One state of a script's view, as it crosses from the thread that owns the
/// script to the server's: the JSON the page gets, and the keys a click may
/// press (enabled or not), so that the server can answer a click at once.
/// A value: nothing in it is shared with the thread that made it.
public struct ScriptViewFrame: Sendable, Equatable {
    public let json: String
    public let buttonKeys: [String: Bool]

    public init(_ state: ScriptViewState) {
        json = ScriptViewJSON.encode(state)
        buttonKeys = state.buttonKeys
    }
}
