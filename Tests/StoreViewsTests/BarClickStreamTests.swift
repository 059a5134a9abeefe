import Foundation
import Testing
@testable import StoreViews

@Suite("Reading i3bar's click events")
struct BarClickStreamTests {
    static let stream = "[\n{\"name\":\"cdscript\",\"instance\":\"tea\",\"button\":1,\"x\":1186,\"y\":13}\n"
        + ",{\"name\":\"cdscript\",\"instance\":\"a}{\\\"b\\\"\",\"button\":3,\"modifiers\":[\"Shift\"]}\n"

    @Test("the array's '[' and the commas are the protocol's; each object is one click, whatever pieces the bytes come in")
    func clicksInAnyPieces() {
        let expected: [BarClickStream.Event] = [
            .click(BarClick(name: "cdscript", instance: "tea", button: 1)),
            .click(BarClick(name: "cdscript", instance: "a}{\"b\"", button: 3)),
        ]
        var whole = BarClickStream()
        #expect(whole.feed(Array(Self.stream.utf8)) == expected)
        var bytewise = BarClickStream()
        var events: [BarClickStream.Event] = []
        for byte in Self.stream.utf8 { events += bytewise.feed([byte]) }
        #expect(events == expected)
        #expect(bytewise.finish() == [])
    }

    @Test("an instance round-trips exactly, escapes, controls and bidi overrides included")
    func hostileInstance() throws {
        let id = "R&D \"x\" \\ \u{1b}[31m \u{202e} 名前 \n"
        let object = try JSONSerialization.data(withJSONObject: ["name": "cdscript", "instance": id, "button": 1])
        var stream = BarClickStream()
        let events = stream.feed(Array("[\n".utf8) + Array(object) + [0x0A])
        #expect(events == [.click(BarClick(name: "cdscript", instance: id, button: 1))])
    }

    @Test("what is not a click is skipped up to its line's end, once each, and the clicks after it still count")
    func malformedIsSkipped() {
        var stream = BarClickStream()
        let events = stream.feed(Array("[\n,not json\n,{\"name\":\"cdscript\"}\n,{\"instance\":\"tea\",\"button\":1}\n,{\"a\":".utf8))
        #expect(events.count == 3)
        guard events.count == 3 else { return }
        if case .malformed(let text) = events[0] { #expect(text == "not json") } else { Issue.record("\(events[0])") }
        if case .malformed = events[1] {} else { Issue.record("a click without a button: \(events[1])") }
        #expect(events[2] == .click(BarClick(name: nil, instance: "tea", button: 1)))
        #expect(stream.finish().count == 1, "the unfinished object at the end of the input")
    }

    @Test("an element that never ends is dropped once it is longer than any click, so memory stays bounded")
    func endlessElement() {
        var stream = BarClickStream()
        var events: [BarClickStream.Event] = []
        let piece = Array("{\"name\":\"".utf8) + Array(repeating: UInt8(ascii: "x"), count: 4096)
        for _ in 0..<20 { events += stream.feed(piece) }
        #expect(events.count == 1)
        // The rest of that line is skipped too; the next line is a click again.
        let rest = stream.feed(Array("\n{\"button\":1}\n".utf8))
        #expect(rest.count == 2)
        #expect(rest.last == .click(BarClick(name: nil, instance: nil, button: 1)))
    }
}
