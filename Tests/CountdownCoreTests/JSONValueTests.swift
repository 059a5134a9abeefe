import CountdownCore
import Foundation
import Testing

/// JSONValue stands in for JSONSerialization in the report, the bars and
/// `.luarc.json`: the same document must give the same bytes.
@Suite("JSONValue writes what JSONSerialization writes (sorted keys, slashes unescaped)")
struct JSONValueTests {
    /// The value as JSONSerialization's input.
    static func foundation(_ value: JSONValue) -> Any {
        switch value {
        case .null: return NSNull()
        case .bool(let b): return b
        case .int(let i): return i
        case .number(let d): return d
        case .string(let s): return s
        case .array(let a): return a.map(foundation)
        case .object(let o): return o.mapValues(foundation)
        }
    }

    static func serialized(_ value: JSONValue, pretty: Bool) throws -> String {
        var options: JSONSerialization.WritingOptions = [.sortedKeys, .withoutEscapingSlashes]
        if pretty { options.insert(.prettyPrinted) }
        return String(decoding: try JSONSerialization.data(withJSONObject: foundation(value), options: options), as: UTF8.self)
    }

    static let controls = String(String.UnicodeScalarView((0..<0x20).compactMap(Unicode.Scalar.init)))
    static let documents: [JSONValue] = [
        .object(["successes": .array([]), "duration": .number(0.012345), "errors": .array([.object([
            "name": .string("a/b spec \"quoted\" \\ é \u{7f} \u{2028} 😀"), "isError": .bool(true), "randomseed": .int(-42),
            "trace": .object(["currentline": .int(3), "short_src": .string("tests/a_spec.lua"), "source": .string("@tests/a_spec.lua"),
                              "traceback": .string("\n" + controls + "\n"), "what": .string("Lua"), "message": .string("")]),
            "element": .object(["attributes": .array([]), "descriptor": .string("it")]),
        ])])]),
        .array([.object(["full_text": .string("tea 4:05"), "short_text": .string("4:05"), "name": .string("cdscript"), "instance": .string("tea"), "color": .string("#FF5555")]),
                .object(["full_text": .string("+3"), "name": .string("cdscript"), "urgent": .bool(true)])]),
        .object(["class": .array([.string("running"), .string("critical")]), "percentage": .int(42), "alt": .string("running"), "text": .string(""), "tooltip": .string("a\nb")]),
        .object(["$schema": .string("https://example.org/schema.json"), "runtime.version": .string("Lua 5.4"), "workspace.library": .array([.string("/usr/share/cdscript")])]),
        .object(["numbers": .array([.number(0), .number(-0.5), .number(1e21), .number(1e-7), .number(0.1 + 0.2), .number(2), .int(Int.max), .null]), "empty": .object([:]), "none": .array([])]),
    ]

    @Test("on one line", arguments: documents.indices)
    func oneLine(_ index: Int) throws {
        #expect(Self.documents[index].text() == (try Self.serialized(Self.documents[index], pretty: false)))
    }

    @Test("pretty-printed", arguments: documents.indices)
    func pretty(_ index: Int) throws {
        #expect(Self.documents[index].text(pretty: true) == (try Self.serialized(Self.documents[index], pretty: true)))
    }
}
