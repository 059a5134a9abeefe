/// The kinds of element a script can put on the view.
public enum ElementKind: String, Sendable, CaseIterable {
    /// A line of text, optionally styled.
    case label
    /// Large block digits, for the main countdown.
    case big
    /// A bar from 0 to 1.
    case progress
    /// A key-driven button, drawn dim and ignoring its key while disabled.
    case button

    /// The fields a script may give this kind, besides `id`, and their types.
    public var fields: [(name: String, type: FieldType)] {
        switch self {
        case .label, .big: [("text", .string), ("style", .string)]
        case .progress: [("value", .number)]
        case .button: [("label", .string), ("key", .string), ("enabled", .boolean), ("style", .string)]
        }
    }
}

/// The type a field must have.
public enum FieldType: String, Sendable {
    case string, number, boolean
}

/// A field value as a script gives it. `other` carries the type name of a value
/// the view cannot take (a table, say), so the error can name it.
public enum FieldValue: Equatable, Sendable {
    case string(String)
    case number(Double)
    case boolean(Bool)
    case other(typeName: String)

    var typeName: String {
        switch self {
        case .string: "string"
        case .number: "number"
        case .boolean: "boolean"
        case .other(let name): name
        }
    }
}

/// One element of the view, with every field it has.
public struct Element: Equatable, Sendable {
    public let id: String
    public let kind: ElementKind
    /// Label and big text.
    public internal(set) var text = ""
    /// Button caption.
    public internal(set) var label = ""
    /// Progress from 0 to 1 (clamped).
    public internal(set) var value = 0.0
    /// A button's key, canonical (see `Key`).
    public internal(set) var key = ""
    public internal(set) var enabled = true
    /// The `style` field as given ("" when none).
    public internal(set) var styleText = ""
    public internal(set) var style = CellStyle.plain
    /// True once the text changed after the element was created: a label that
    /// ticks, which a small terminal keeps before one that stays the same.
    public internal(set) var changes = false

    init(id: String, kind: ElementKind) {
        self.id = id
        self.kind = kind
    }

    /// The element's fields as `view.get` returns them, in a stable order.
    public var fields: [(name: String, value: FieldValue)] {
        var result: [(String, FieldValue)] = [("id", .string(id)), ("kind", .string(kind.rawValue))]
        switch kind {
        case .label, .big:
            result.append(("text", .string(text)))
        case .progress:
            result.append(("value", .number(value)))
        case .button:
            result.append(("label", .string(label)))
            result.append(("key", .string(key)))
            result.append(("enabled", .boolean(enabled)))
        }
        if kind != .progress, !styleText.isEmpty { result.append(("style", .string(styleText))) }
        return result
    }

    /// Sets one field after checking its name and type. Keys are checked for
    /// clashes by the model, which knows the other buttons.
    mutating func set(_ name: String, _ input: FieldValue) throws(ViewError) {
        guard let type = kind.fields.first(where: { $0.name == name })?.type else {
            if name == "id" { throw ViewError("'id' cannot be changed (element '\(id)')") }
            if name == "kind" { throw ViewError("'kind' cannot be changed (element '\(id)')") }
            throw ViewError("a \(kind.rawValue) has no field '\(name)'\(Self.suggestion(for: name, in: kind))")
        }
        switch (type, input) {
        case (.string, .string(let s)):
            switch name {
            case "text": text = s
            case "label": label = s
            case "key": key = try Key.normalize(s)
            case "style":
                style = try CellStyle.parse(s)
                styleText = s
            default: break
            }
        case (.number, .number(let n)):
            guard n.isFinite else { throw ViewError("'\(name)' must be a finite number, got \(n)") }
            value = min(1, max(0, n))
        case (.boolean, .boolean(let b)):
            enabled = b
        default:
            throw ViewError("'\(name)' must be a \(type.rawValue), got \(input.typeName)")
        }
    }

    static func suggestion(for name: String, in kind: ElementKind) -> String {
        let candidates = kind.fields.map(\.name)
        let close = candidates.min { editDistance(name, $0) < editDistance(name, $1) }
        if let close, editDistance(name, close) <= 2 { return " (did you mean '\(close)'?)" }
        return " (fields: id, \(candidates.joined(separator: ", ")))"
    }

    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var row = Array(0...b.count)
        for i in 1...a.count {
            var previous = row[0]
            row[0] = i
            for j in 1...b.count {
                let saved = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = saved
            }
        }
        return row[b.count]
    }
}
