/// One value as SQLite stores it: its type is the value's, not the column's
/// (a column declared INTEGER can hold text), so a reader checks what it got.
public enum SQLiteValue: Equatable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    public var isNull: Bool { self == .null }

    /// The integer, when the value is one.
    public var integer: Int64? {
        if case .integer(let n) = self { return n }
        return nil
    }

    /// The text, when the value is text.
    public var text: String? {
        if case .text(let s) = self { return s }
        return nil
    }
}

extension SQLiteValue {
    /// NULL for nil.
    public init(_ value: Int64?) { self = value.map(SQLiteValue.integer) ?? .null }
    /// NULL for nil.
    public init(_ value: Int?) { self = value.map { .integer(Int64($0)) } ?? .null }
    /// NULL for nil.
    public init(_ value: Int32?) { self = value.map { .integer(Int64($0)) } ?? .null }
    /// NULL for nil.
    public init(_ value: String?) { self = value.map(SQLiteValue.text) ?? .null }
    /// 1 or 0: SQLite has no boolean type.
    public init(_ value: Bool) { self = .integer(value ? 1 : 0) }
}

extension SQLiteValue: ExpressibleByNilLiteral, ExpressibleByIntegerLiteral, ExpressibleByStringLiteral {
    public init(nilLiteral: ()) { self = .null }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(stringLiteral value: String) { self = .text(value) }
}

/// How a value reads in messages about a row that cannot be read: text quoted
/// and escaped as Swift shows a string, so that an empty or odd value is seen
/// for what it is; the same words stores made by earlier builds were described in.
extension SQLiteValue: CustomStringConvertible {
    public var description: String {
        switch self {
        case .null: "NULL"
        case .integer(let n): String(n)
        case .real(let d): String(d)
        case .text(let s): String(reflecting: s)
        case .blob(let bytes): "Data(\(bytes.count) bytes)"
        }
    }
}
