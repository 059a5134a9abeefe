import TerminalView

/// What a script's view shows at one moment, as the browser draws it: the
/// elements in order, the window title, the pause note while Space holds the
/// countdowns, the last hook error, and whether the view was closed.
///
/// A value: the run loop's thread (which owns the `ViewController`) takes one
/// after each pass and compares it with the last one sent, so an unchanged view
/// costs no encoding and no message. Elements compare cheaply when nothing
/// changed (the array is the model's own storage, shared until written).
public struct ScriptViewState: Equatable, Sendable {
    public var elements: [Element]
    public var title: String?
    /// The pause note's text while it shows; nil otherwise.
    public var pauseNote: String?
    /// The error line shown on the terminal's bottom row, if any.
    public var errorNote: String?
    public var closed: Bool

    public init(elements: [Element] = [], title: String? = nil, pauseNote: String? = nil, errorNote: String? = nil, closed: Bool = false) {
        self.elements = elements
        self.title = title
        self.pauseNote = pauseNote
        self.errorNote = errorNote
        self.closed = closed
    }

    /// The view `controller` shows now.
    public init(of controller: ViewController) {
        let note = controller.isPausedBySpace && controller.pauseNote.visible ? controller.pauseNote.text : nil
        self.init(elements: controller.model.elements, title: controller.title, pauseNote: note,
                  errorNote: controller.errorNote, closed: controller.isClosed)
    }

    /// The keys a click may press: every button's key, with whether it is enabled now.
    public var buttonKeys: [String: Bool] {
        var keys: [String: Bool] = [:]
        for element in elements where element.kind == .button { keys[element.key] = element.enabled }
        return keys
    }
}
