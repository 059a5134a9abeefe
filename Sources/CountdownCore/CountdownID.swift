/// A countdown id as the bytes it is made of, for keying and comparing ids.
///
/// Swift's `String` compares and hashes by canonical equivalence: "café" spelled
/// with a precomposed "é" (NFC) equals "café" spelled "e" + combining accent (NFD),
/// so a `[String: X]` keeps one entry for both. Ids are bytes (as the stores and
/// the Lua id table treat them): two ids that differ only in normal form are two
/// countdowns. Order is byte order, as SQLite's `ORDER BY id` sorts.
public struct CountdownID: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The id as text.
    public let string: String

    public init(_ string: String) { self.string = string }

    public init(stringLiteral value: String) { self.string = value }

    public static func == (a: CountdownID, b: CountdownID) -> Bool {
        a.string.utf8.elementsEqual(b.string.utf8)
    }

    public static func < (a: CountdownID, b: CountdownID) -> Bool {
        a.string.utf8.lexicographicallyPrecedes(b.string.utf8)
    }

    public func hash(into hasher: inout Hasher) {
        var text = string
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    public var description: String { string }
}

extension String {
    /// True when both are the same bytes (`==` also equates canonically equivalent text).
    @inlinable
    public func sameBytes(as other: String) -> Bool { utf8.elementsEqual(other.utf8) }

    /// Byte order, as SQLite sorts ids (`<` orders canonically equivalent text as equal).
    @inlinable
    public func precedesInBytes(_ other: String) -> Bool { utf8.lexicographicallyPrecedes(other.utf8) }
}
