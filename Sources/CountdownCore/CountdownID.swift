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
        a.string.sameBytes(as: b.string)
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
    /// The lengths first (a native string keeps its own), then the bytes where they
    /// lie: `elementsEqual` of the two UTF8Views walked both through their
    /// iterators, 380 instructions for two equal 4-byte ids (issue 53; a lookup
    /// by id in a dictionary pays it once per match).
    @inlinable
    public func sameBytes(as other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        let compared = utf8.withContiguousStorageIfAvailable { mine in
            other.utf8.withContiguousStorageIfAvailable { theirs in
                // A plain loop: elementsEqual of the buffers still took 37 instructions a byte.
                for i in 0..<mine.count where mine[i] != theirs[i] { return false }
                return true
            }
        }
        if let compared, let same = compared { return same }
        return utf8.elementsEqual(other.utf8)
    }

    /// Byte order, as SQLite sorts ids (`<` orders canonically equivalent text as equal).
    @inlinable
    public func precedesInBytes(_ other: String) -> Bool { utf8.lexicographicallyPrecedes(other.utf8) }
}
