import TerminalView

/// A view like examples/sms_code.lua's: a status label and a resend button.
func smsModel(status: String = "Resend in 59s", enabled: Bool = false) throws -> [Element] {
    var model = ViewModel()
    try model.add(.label, id: "status", fields: [("text", .string(status))])
    try model.add(.button, id: "resend", fields: [
        ("label", .string("Resend code")), ("key", .string("r")), ("enabled", .boolean(enabled)),
    ])
    return model.elements
}

/// Lines of a screen snapshot, written as a block for readability.
func lines(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).joined(separator: "\n")
}

extension Screen {
    /// The row with text containing `needle`.
    func row(containing needle: String) -> Int? {
        (0..<size.rows).first { line($0).contains(needle) }
    }
}

/// A screen's text from its rows, each written out in full.
func rows(_ lines: String...) -> String { lines.joined(separator: "\n") }
