/// A stored countdown as JSON in `cdscript list --json`'s shape: one source for
/// that shape, written by the listing (cdscript's `ListingWriter`) and by the
/// HTTP API (`GET /api/countdowns`). The text is byte for byte what
/// `JSONEncoder` writes (pretty-printed, sorted keys, slashes unescaped), with
/// the controls a terminal would act on escaped as well.
public enum CountdownJSON {
    /// One element of the listing's array at `now`, indented as the array's
    /// element (two blanks), without a separator.
    public static func appendRecord(_ c: StoredCountdown, at now: StoreInstant, to buffer: inout String) {
        let state = c.effectiveState(at: now)
        let deadline: Nanoseconds? = state == .paused ? nil : c.wallDeadline(at: now)
        appendJSON(c, state: c.listedState(at: now), remaining: c.remaining(at: now), deadline: deadline,
                   overtime: c.overtime ? c.timePastEnd(at: now) : nil, to: &buffer)
    }

    /// One element of the array, keys sorted, as `JSONEncoder` pretty-prints it.
    /// `overtime`: seconds past the end (0 before it) of a countdown started with
    /// `overtime`, nil (null) for one without.
    static func appendJSON(_ c: StoredCountdown, state: String, remaining: Nanoseconds, deadline: Nanoseconds?, overtime: Nanoseconds?, to buffer: inout String) {
        // The end actions' names, an array as JSONEncoder pretty-prints one (an empty one too).
        buffer += "  {\n    \"actions\" : "
        if c.actions.isEmpty {
            buffer += "[\n\n    ]"
        } else {
            buffer += "[\n"
            for (index, name) in c.actions.enumerated() {
                buffer += index == 0 ? "      " : ",\n      "
                Self.appendString(name, to: &buffer)
            }
            buffer += "\n    ]"
        }
        buffer += ",\n    \"deadline\" : "
        if let deadline {
            buffer += "\""
            buffer += UTCTimestamp.iso8601(deadline)
            buffer += "\""
        } else {
            buffer += "null"
        }
        buffer += ",\n    \"every\" : "
        buffer += Self.number(Time.seconds(c.every))
        buffer += ",\n    \"id\" : "
        Self.appendString(c.id, to: &buffer)
        buffer += ",\n    \"kind\" : \""
        buffer += c.kind.rawValue
        buffer += "\",\n    \"overtime\" : "
        buffer += overtime.map { Self.number(Time.seconds($0)) } ?? "null"
        buffer += ",\n    \"remaining\" : "
        buffer += Self.number(Time.seconds(remaining))
        buffer += ",\n    \"state\" : \""
        buffer += state
        buffer += "\",\n    \"title\" : "
        if let title = c.title { Self.appendString(title, to: &buffer) } else { buffer += "null" }
        buffer += ",\n    \"total\" : "
        buffer += Self.number(Time.seconds(c.total))
        buffer += "\n  }"
    }

    /// A number as `JSONEncoder` writes a Double: its description without a trailing ".0".
    public static func number(_ value: Double) -> String {
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }

    /// A JSON string: `JSONEncoder`'s escapes for the quote, the backslash and
    /// C0 controls, then `VisibleText.jsonEscapingControls` for DEL, C1 controls,
    /// line separators and bidi overrides (which encoders leave raw).
    public static func appendString(_ text: String, to out: inout String) {
        let plain = text.utf8.allSatisfy { $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") && $0 < 0x7F }
        guard !plain else {
            out += "\"" + text + "\""
            return
        }
        // JSONValue's escapes (the same as JSONEncoder's), then the visible ones.
        var escaped = ""
        JSONValue.appendString(text, to: &escaped)
        out += VisibleText.jsonEscapingControls(escaped)
    }
}
