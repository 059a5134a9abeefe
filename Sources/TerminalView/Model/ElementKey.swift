/// An element id as its bytes, for dictionary keys: `String` hashes and compares
/// by canonical equivalence, which would make "café" in NFC and in NFD (two
/// countdowns, as ids are bytes) one element.
struct ElementKey: Hashable {
    let id: String

    init(_ id: String) { self.id = id }

    static func == (a: ElementKey, b: ElementKey) -> Bool { a.id.utf8.elementsEqual(b.id.utf8) }

    func hash(into hasher: inout Hasher) {
        var text = id
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
