/// An element id as its bytes, for dictionary keys: `String` hashes and compares
/// by canonical equivalence, which would make "café" in NFC and in NFD (two
/// countdowns, as ids are bytes) one element. The Lua host keys what it keeps
/// per element (press hooks, text charged to --memory-limit) with it too.
public struct ElementKey: Hashable, Sendable {
    public let id: String

    public init(_ id: String) { self.id = id }

    public static func == (a: ElementKey, b: ElementKey) -> Bool { a.id.utf8.elementsEqual(b.id.utf8) }

    public func hash(into hasher: inout Hasher) {
        var text = id
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
