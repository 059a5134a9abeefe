import Testing
@testable import TerminalView

@Suite("ViewModel: ids, keys and fields are checked, and errors name the problem")
struct ViewModelTests {
    @Test("elements keep their creation order and fields")
    func creation() throws {
        var model = ViewModel()
        try model.add(.label, id: "status", fields: [("text", .string("Resend in 59s"))])
        try model.add(.button, id: "resend", fields: [("label", .string("Resend code")), ("key", .string("r")), ("enabled", .boolean(false))])
        try model.add(.progress, id: "bar", fields: [("value", .number(0.25))])
        #expect(model.elements.map(\.id) == ["status", "resend", "bar"])
        #expect(model.element("resend")?.enabled == false)
        #expect(model.button(forKey: "r") == "resend")
        #expect(model.element("bar")?.value == 0.25)
    }

    @Test("a button is enabled unless told otherwise")
    func enabledByDefault() throws {
        var model = ViewModel()
        try model.add(.button, id: "go", fields: [("label", .string("Go")), ("key", .string("g"))])
        #expect(model.element("go")?.enabled == true)
    }

    @Test("mistakes are errors that name them", arguments: [
        ("duplicate id", "duplicate id 'status': a label already has it"),
        ("unknown field", "a label has no field 'txt' (did you mean 'text'?)"),
        ("wrong type", "'text' must be a string, got number"),
        ("table value", "'enabled' must be a boolean, got table"),
        ("key bound twice", "key 'r' is already bound to button 'resend'"),
        ("reserved key", "key 'q' is kept for quitting the view (button 'quit')"),
        ("bad key", "key 'ctrl-x' is not a key"),
        ("missing key", "a button needs 'key' (button 'other')"),
        ("unknown style", "unknown style 'sparkly'"),
        ("not finite", "'value' must be a finite number, got nan"),
    ])
    func errors(case name: String, message: String) throws {
        var model = ViewModel()
        try model.add(.label, id: "status", fields: [("text", .string("x"))])
        try model.add(.button, id: "resend", fields: [("label", .string("Resend")), ("key", .string("r"))])
        try model.add(.progress, id: "bar", fields: [])
        let error = #expect(throws: ViewError.self) {
            switch name {
            case "duplicate id": try model.add(.label, id: "status", fields: [])
            case "unknown field": try model.set("status", fields: [("txt", .string("y"))])
            case "wrong type": try model.set("status", fields: [("text", .number(5))])
            case "table value": try model.set("resend", fields: [("enabled", .other(typeName: "table"))])
            case "key bound twice": try model.add(.button, id: "other", fields: [("label", .string("O")), ("key", .string("r"))])
            case "reserved key": try model.add(.button, id: "quit", fields: [("label", .string("Q")), ("key", .string("q"))])
            case "bad key": try model.set("resend", fields: [("key", .string("ctrl-x"))])
            case "missing key": try model.add(.button, id: "other", fields: [("label", .string("O"))])
            case "unknown style": try model.set("status", fields: [("style", .string("bold sparkly"))])
            case "not finite": try model.set("bar", fields: [("value", .number(.nan))])
            default: Issue.record("no case \(name)")
            }
        }
        #expect(error?.message.hasPrefix(message) == true, "\(error?.message ?? "no error")")
    }

    @Test("an unknown id lists the ids there are")
    func unknownID() throws {
        var model = ViewModel()
        #expect(model.unknownID("x").message == "unknown id 'x' (the view has no elements yet)")
        try model.add(.label, id: "a", fields: [])
        try model.add(.label, id: "b", fields: [])
        #expect(throws: ViewError("unknown id 'c' (ids: 'a', 'b')")) { try model.set("c", fields: []) }
    }

    @Test("a set with one wrong field changes nothing")
    func atomicSet() throws {
        var model = ViewModel()
        try model.add(.label, id: "status", fields: [("text", .string("before"))])
        #expect(throws: ViewError.self) {
            try model.set("status", fields: [("text", .string("after")), ("style", .number(1))])
        }
        #expect(model.element("status")?.text == "before")
    }

    @Test("rebinding a button's key frees the old key")
    func rebind() throws {
        var model = ViewModel()
        try model.add(.button, id: "a", fields: [("label", .string("A")), ("key", .string("a"))])
        try model.set("a", fields: [("key", .string("x"))])
        #expect(model.button(forKey: "a") == nil)
        #expect(model.button(forKey: "x") == "a")
        try model.add(.button, id: "b", fields: [("label", .string("B")), ("key", .string("a"))])
        #expect(model.button(forKey: "a") == "b")
    }

    @Test("set reports whether anything changed; progress is clamped to 0...1")
    func changes() throws {
        var model = ViewModel()
        try model.add(.progress, id: "bar", fields: [("value", .number(2))])
        #expect(model.element("bar")?.value == 1)
        #expect(try model.set("bar", fields: [("value", .number(1))]) == false)
        #expect(try model.set("bar", fields: [("value", .number(-3))]) == true)
        #expect(model.element("bar")?.value == 0)
    }

    @Test("keys: one character or a name; a blank is space", arguments: [
        (" ", "space"), ("Space", "space"), ("r", "r"), ("R", "R"), ("ENTER", "enter"), ("esc", "escape"), ("é", "é"),
    ])
    func keys(text: String, canonical: String) throws {
        #expect(try Key.normalize(text) == canonical)
    }

    @Test("get returns the fields a script can read back")
    func fields() throws {
        var model = ViewModel()
        try model.add(.button, id: "go", fields: [("label", .string("Go")), ("key", .string(" ")), ("style", .string("bold"))])
        let fields = model.element("go")!.fields
        #expect(fields.map(\.name) == ["id", "kind", "label", "key", "enabled", "style"])
        #expect(fields[3].value == .string("space"))
    }
}
