@testable import CountdownWeb
import Foundation
import TerminalView
import Testing
@testable import ScriptViewModel

/// A view made through the controller, as a script makes it.
func scriptView(_ build: (ViewController) throws -> Void) rethrows -> ViewController {
    let controller = ViewController(output: .plain { _ in })
    try build(controller)
    return controller
}

func parsed(_ json: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
}

@Suite("A script's view as JSON for the page")
struct ScriptViewJSONTests {
    static let hostile = ["<script>window.pwned=1</script>", "\"><img src=x onerror=window.pwned=1>", "javascript:alert(1)",
                          "abc\u{202E}fed", "two\nlines\u{2028}and\u{0007}bell", "back\\slash \"quoted\""]

    @Test("Every kind carries its fields: text and style, value, label, key and enabled")
    func kindsAndFields() throws {
        let view = try scriptView { v in
            try v.add(.label, id: "heading", fields: [("text", .string("The sale ends in")), ("style", .string("bold yellow"))])
            try v.add(.big, id: "clock", fields: [("text", .string("00:00:04.9"))])
            try v.add(.progress, id: "elapsed", fields: [("value", .number(0.25))])
            try v.add(.button, id: "resend", fields: [("label", .string("Resend code")), ("key", .string(" ")), ("enabled", .boolean(false))])
            v.setTitle("Flash sale")
        }
        let json = try parsed(ScriptViewJSON.encode(ScriptViewState(of: view)))
        #expect(json["event"] as? String == "view")
        #expect(json["title"] as? String == "Flash sale")
        #expect(json["paused"] is NSNull && json["error"] is NSNull)
        #expect(json["closed"] as? Bool == false)
        let elements = try #require(json["elements"] as? [[String: Any]])
        #expect(elements.map { $0["id"] as? String } == ["heading", "clock", "elapsed", "resend"])
        #expect(elements.map { $0["kind"] as? String } == ["label", "big", "progress", "button"])
        #expect(elements[0]["text"] as? String == "The sale ends in")
        let style = try #require(elements[0]["style"] as? [String: Any])
        #expect(style["bold"] as? Bool == true && style["dim"] as? Bool == false && style["color"] as? String == "yellow")
        #expect((elements[1]["style"] as? [String: Any])?["color"] is NSNull)
        #expect(elements[2]["value"] as? Double == 0.25)
        #expect(elements[2]["style"] == nil && elements[2]["text"] == nil)
        #expect(elements[3]["label"] as? String == "Resend code")
        #expect(elements[3]["key"] as? String == "space")
        #expect(elements[3]["enabled"] as? Bool == false)
    }

    @Test("Hostile text in ids, labels and the title arrives as the same text, with controls, separators and overrides escaped")
    func hostileTextStaysText() throws {
        let view = try scriptView { v in
            for (index, text) in Self.hostile.enumerated() {
                try v.add(.label, id: text, fields: [("text", .string(text))])
                try v.add(.button, id: "b\(index)", fields: [("label", .string(text)), ("key", .string(String(index)))])
            }
            v.setTitle(Self.hostile[0])
        }
        let text = ScriptViewJSON.encode(ScriptViewState(of: view))
        for raw in ["\u{202E}", "\n", "\u{2028}", "\u{0007}"] { #expect(!text.contains(raw), "raw \(raw.unicodeScalars.first!.value) in the JSON") }
        let json = try parsed(text)
        let elements = try #require(json["elements"] as? [[String: Any]])
        #expect(elements.compactMap { $0["kind"] as? String == "label" ? $0["id"] as? String : nil } == Self.hostile)
        #expect(elements.compactMap { $0["kind"] as? String == "label" ? $0["text"] as? String : nil } == Self.hostile)
        #expect(elements.compactMap { $0["label"] as? String } == Self.hostile)
        #expect(json["title"] as? String == Self.hostile[0])
    }

    @Test("The pause note shows only while Space holds the countdowns, and a closed view says so")
    func pauseAndClose() throws {
        let view = try scriptView { try $0.add(.label, id: "a", fields: [("text", .string("x"))]) }
        #expect(ScriptViewState(of: view).pauseNote == nil)
        view.setPausedBySpace(true)
        #expect(try parsed(ScriptViewJSON.encode(ScriptViewState(of: view)))["paused"] as? String == PauseNote.defaultText)
        var hidden = PauseNote()
        hidden.visible = false
        view.setPauseNote(hidden)
        #expect(ScriptViewState(of: view).pauseNote == nil)
        view.close()
        #expect(try parsed(ScriptViewJSON.encode(ScriptViewState(of: view)))["closed"] as? Bool == true)
    }

    @Test("The keys a click may press are the buttons' keys, with their enabled state")
    func buttonKeys() throws {
        let view = try scriptView { v in
            try v.add(.button, id: "go", fields: [("label", .string("Go")), ("key", .string("g"))])
            try v.add(.button, id: "stop", fields: [("label", .string("Stop")), ("key", .string("enter")), ("enabled", .boolean(false))])
            try v.add(.label, id: "l", fields: [("text", .string("r"))])
        }
        #expect(ScriptViewFrame(ScriptViewState(of: view)).buttonKeys == ["g": true, "enter": false])
    }
}

@Suite("The publisher sends the view only when the page would see a change")
struct ScriptViewPublisherTests {
    @Test("An unchanged view sends nothing however often it is given; each visible change sends one frame")
    func onChangeOnly() throws {
        var sent: [ScriptViewFrame] = []
        let publisher = ScriptViewPublisher { sent.append($0) }
        let view = try scriptView { try $0.add(.label, id: "status", fields: [("text", .string("Resend in 5s"))]) }
        for _ in 0..<100 { publisher.update(ScriptViewState(of: view)) }
        #expect(sent.count == 1)
        // Changed and changed back within a pass: the model now marks the label as one
        // that changes, which the page does not show: nothing new to send.
        try view.set("status", fields: [("text", .string("Resend in 4s"))])
        try view.set("status", fields: [("text", .string("Resend in 5s"))])
        publisher.update(ScriptViewState(of: view))
        #expect(sent.count == 1)
        try view.set("status", fields: [("text", .string("Resend in 4s"))])
        publisher.update(ScriptViewState(of: view))
        publisher.update(ScriptViewState(of: view))
        #expect(sent.count == 2)
        let elements = try #require(try parsed(sent[1].json)["elements"] as? [[String: Any]])
        #expect(elements.first?["text"] as? String == "Resend in 4s")
        #expect(publisher.sentCount == 2)
    }
}
