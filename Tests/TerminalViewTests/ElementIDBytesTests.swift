import Testing
@testable import TerminalView

@Suite("View element ids are bytes: `watch` shows countdowns whose ids differ only in normal form apart")
struct ElementIDBytesTests {
    @Test("\"café\" in NFC and in NFD are two elements, each set on its own")
    func twoElements() throws {
        var model = ViewModel()
        try model.add(.label, id: "caf\u{E9}", fields: [("text", .string("one"))])
        try model.add(.label, id: "cafe\u{301}", fields: [("text", .string("two"))])
        #expect(model.elements.count == 2)
        try model.set("cafe\u{301}", fields: [("text", .string("three"))])
        #expect(model.element("caf\u{E9}")?.text == "one")
        #expect(model.element("cafe\u{301}")?.text == "three")
    }
}
