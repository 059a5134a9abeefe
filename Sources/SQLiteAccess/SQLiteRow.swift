/// One row's values, copied out of a statement, readable by position or by
/// column name.
public struct SQLiteRow: Equatable, Sendable {
    public let names: [String]
    public let values: [SQLiteValue]

    public init(names: [String], values: [SQLiteValue]) {
        self.names = names
        self.values = values
    }

    public var count: Int { values.count }

    /// Column `index`; NULL past the last one.
    public subscript(index: Int) -> SQLiteValue {
        index < values.count ? values[index] : .null
    }

    /// The first column named `name`; NULL when there is none (see `hasColumn`).
    public subscript(name: String) -> SQLiteValue {
        names.firstIndex(of: name).map { values[$0] } ?? .null
    }

    public func hasColumn(_ name: String) -> Bool { names.contains(name) }
}
